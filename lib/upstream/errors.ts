import 'server-only';
import { brandCheck } from '../errors/brand';
/**
 * One error type for everything that can go wrong talking to the upstream, classified by what the
 * caller should do about it (retry, re-authenticate, fix the query, give up) rather than by where it
 * happened. Messages never carry a token, a secret, an Authorization header or a response body.
 */

export type UpstreamErrorKind =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'rate_limited'
  | 'unavailable'
  | 'timeout'
  | 'malformed'
  | 'network';

export interface UpstreamErrorDetails {
  status?: number;
  retryAfterMs?: number;
  upstreamMessage?: string;
  /** Set when the answer was larger than UPSTREAM_MAX_BODY_BYTES (a `malformed` answer): that limit. */
  maxBodyBytes?: number;
  cause?: unknown;
}

const UPSTREAMERROR_BRAND = brandCheck('UpstreamError');

export class UpstreamError extends Error {
  /** Recognised across bundled copies of this module (lib/errors/brand.ts). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return UPSTREAMERROR_BRAND.hasInstance(value);
  }
  readonly [UPSTREAMERROR_BRAND.brand] = true;

  override readonly name = 'UpstreamError';
  readonly kind: UpstreamErrorKind;
  // `declare`: with ES2022 class fields a plain declaration would create the property as undefined.
  /** The upstream's HTTP status, when it answered at all. */
  declare readonly status?: number;
  /** From Retry-After, when the upstream sent one (429 and 5xx). */
  declare readonly retryAfterMs?: number;
  /** A short, credential-scrubbed excerpt of what the upstream said was wrong. */
  declare readonly upstreamMessage?: string;
  /** The limit an answer went past (UPSTREAM_MAX_BODY_BYTES), when that is what was wrong. */
  declare readonly maxBodyBytes?: number;

  constructor(kind: UpstreamErrorKind, message: string, details: UpstreamErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.kind = kind;
    // Assigned only when known, so `'status' in err` and logs stay honest.
    const self = this as {
      -readonly [K in 'status' | 'retryAfterMs' | 'upstreamMessage' | 'maxBodyBytes']?: UpstreamError[K];
    };
    if (details.status !== undefined) self.status = details.status;
    if (details.maxBodyBytes !== undefined) self.maxBodyBytes = details.maxBodyBytes;
    if (details.retryAfterMs !== undefined) self.retryAfterMs = details.retryAfterMs;
    if (details.upstreamMessage !== undefined) self.upstreamMessage = details.upstreamMessage;
  }
}

const CREDENTIALSREFUSEDERROR_BRAND = brandCheck('CredentialsRefusedError');

/**
 * The token endpoint refused an account's stored credentials when its token was renewed: the secret
 * was changed (rotated) or the key withdrawn upstream. Still an `unauthorized` UpstreamError, for
 * code that only needs to know the credentials are no good (an export waits for a new sign-in);
 * the gateway has ended the key's sessions when it throws this.
 */
export class CredentialsRefusedError extends UpstreamError {
  static override [Symbol.hasInstance](value: unknown): boolean {
    return CREDENTIALSREFUSEDERROR_BRAND.hasInstance(value);
  }
  readonly [CREDENTIALSREFUSEDERROR_BRAND.brand] = true;

  constructor(
    readonly apiKey: string,
    /** Sessions of the key that were ended. */
    readonly sessionsEnded: number,
    cause: UpstreamError,
  ) {
    super('unauthorized', 'The Report API refused the stored credentials when the token was renewed', {
      ...(cause.status !== undefined ? { status: cause.status } : {}),
      ...(cause.upstreamMessage !== undefined ? { upstreamMessage: cause.upstreamMessage } : {}),
      cause,
    });
  }
}

const RETRYABLE: ReadonlySet<UpstreamErrorKind> = new Set(['timeout', 'network', 'unavailable', 'rate_limited']);

/** Whether the same request may succeed later unchanged (after `retryAfterMs`, when given). */
export function isRetryable(err: unknown): boolean {
  return err instanceof UpstreamError && RETRYABLE.has(err.kind);
}

/**
 * The documented statuses (notes.md) map one to one. Undocumented ones fall into their class:
 * another 4xx is the request's fault, another 5xx the upstream's. 408 is the upstream giving up on
 * a slow request, i.e. a timeout. Anything else (a 3xx we refused to follow, a 1xx) is not an
 * answer we understand.
 */
export function kindForStatus(status: number): UpstreamErrorKind {
  switch (status) {
    case 400:
    case 405:
      return 'bad_request';
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 408:
      return 'timeout';
    case 429:
      return 'rate_limited';
  }
  if (status >= 500 && status <= 599) return 'unavailable';
  if (status >= 400 && status <= 499) return 'bad_request';
  return 'malformed';
}
