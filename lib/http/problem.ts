import 'server-only';
import { brandCheck } from '../errors/brand';
/**
 * Every error of the dashboard's API is RFC 9457 problem details (application/problem+json), with
 * `errors` per parameter for 400 and Retry-After for 429/503. The messages say what happened and
 * what to do; they never carry a token, a secret or a record's content. Their words are the
 * catalogues' (messages/<locale>/problems.json), said in the request's language when answered
 * (renderProblem); `type` and every machine-read member stay English.
 */
import { type Problem, type ProblemSpec } from './problem-types';
import { log } from '../log';
import { isStoreFull, isStoreUnavailable } from '../db/unavailable';
import type { Locale } from '../i18n/locales';
import { msg, type Words } from '../i18n/message';
import { translate } from '../i18n/translate';

/** Every problem type is a path under this. */
export const TYPE_BASE = '/problems/';

const PROBLEMERROR_BRAND = brandCheck('ProblemError');

export class ProblemError extends Error {
  /** Recognised across bundled copies of this module (lib/errors/brand.ts). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return PROBLEMERROR_BRAND.hasInstance(value);
  }
  readonly [PROBLEMERROR_BRAND.brand] = true;

  /** `spec`: the problem with its words still keys (lib/http/problem-types.ts), rendered when answered. */
  constructor(
    readonly spec: ProblemSpec,
    readonly headers: Record<string, string> = {},
  ) {
    super(translate('en', spec.detail ?? spec.title));
    this.name = 'ProblemError';
  }

  /** The problem in English, for a log line or a test; an answer says it in its reader's language. */
  get problem(): Problem {
    return renderProblem(this.spec, 'en');
  }
}

const WORD_MEMBERS = new Set(['title', 'detail', 'reason']);

/** The problem in `locale`'s words; every other member, and the order of members, as they were. */
export function renderProblem(spec: ProblemSpec, locale: Locale): Problem {
  return Object.fromEntries(
    Object.entries(spec).map(([name, value]) => {
      if (WORD_MEMBERS.has(name)) return [name, translate(locale, value as Words)];
      if (name === 'errors') {
        const errors = value as Record<string, Words>;
        // A parameter's name is the client's (`__proto__` included): kept as an own member, never a prototype.
        return [name, Object.fromEntries(Object.entries(errors).map(([field, w]) => [field, translate(locale, w)]))];
      }
      return [name, value];
    }),
  ) as unknown as Problem;
}

/** The answer of a problem, in the words of `locale` (the request's: lib/i18n/request-locale.ts). */
export function problemResponse(spec: ProblemSpec, locale: Locale, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(renderProblem(spec, locale)), {
    status: spec.status,
    headers: {
      'Content-Type': 'application/problem+json',
      'Cache-Control': 'no-store',
      // Said in the language the request asked for (or its cookie named).
      Vary: 'Accept-Language, Cookie',
      ...headers,
    },
  });
}

/**
 * A 400 naming what is wrong with each parameter. Per parameter, Words: a catalogue key (`msg(…)`),
 * or text from validation not converted yet (lib/query's, said in English as it is).
 */
export function badRequest(errors: Record<string, Words>): ProblemError {
  const fields = Object.keys(errors);
  return new ProblemError({
    type: `${TYPE_BASE}invalid-query`,
    title: msg('problems.invalidQuery.title'),
    status: 400,
    detail: msg('problems.invalidQuery.detail', { fields: fields.join(', ') }),
    errors,
  });
}

export function notFound(detail: Words): ProblemError {
  return new ProblemError({
    type: `${TYPE_BASE}not-found`,
    title: msg('problems.notFound.title'),
    status: 404,
    detail,
  });
}

/**
 * A body over `maxBodyBytes`; `whatToSend` tells the client what the endpoint does take. `headers`:
 * `Connection: close` when the rest of the body is left unread on the connection.
 */
export function payloadTooLarge(
  maxBodyBytes: number,
  whatToSend: Words,
  headers: Record<string, string> = {},
): ProblemError {
  return new ProblemError(
    {
      type: `${TYPE_BASE}payload-too-large`,
      title: msg('problems.payloadTooLarge.title'),
      status: 413,
      // As strings: a byte count reads as the limit a client sets, without separators.
      detail: msg('problems.payloadTooLarge.detail', {
        maxBytes: String(maxBodyBytes),
        maxKib: String(maxBodyBytes / 1024),
        whatToSend,
      }),
      maxBodyBytes,
    },
    headers,
  );
}

export function crossSiteRefused(): ProblemError {
  return new ProblemError({
    type: `${TYPE_BASE}cross-site`,
    title: msg('problems.crossSite.title'),
    status: 403,
    detail: msg('problems.crossSite.detail'),
  });
}

const STORE_UNAVAILABLE_PROBLEM = `${TYPE_BASE}store-unavailable`;
/** When to try again while the store cannot be reached: a database restart or failover takes seconds to a minute. */
export const STORE_RETRY_AFTER_S = 15;

export function retryAfterSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/** When to try again while the store's disk is full: freeing space is an operator's minutes. */
export const STORE_FULL_RETRY_AFTER_S = 60;

/**
 * The 503 of a store out of reach (507 of one whose disk is full), for a handler that otherwise
 * lets errors through (next-auth's); null for any other error.
 */
export function storeUnavailableResponse(err: unknown, locale: Locale): Response | null {
  if (!isStoreUnavailable(err) && !isStoreFull(err)) return null;
  const { problem, headers } = kernelProblem(err);
  return problemResponse(problem, locale, headers);
}

/**
 * The problems of the kernel's own errors: a ProblemError as it says, a store whose disk is full
 * (507), a store out of reach (503), anything else a fault of ours (500, its text logged, never shown). Features map their own errors
 * first (lib/root/error-problems.ts).
 */
export function kernelProblem(err: unknown): { problem: ProblemSpec; headers: Record<string, string> } {
  if (err instanceof ProblemError) return { problem: err.spec, headers: err.headers };
  if (isStoreFull(err)) {
    log.error('handler.store_full', { error: err instanceof Error ? err.message : String(err) });
    return {
      problem: {
        type: `${TYPE_BASE}store-full`,
        title: msg('problems.storeFull.title'),
        status: 507,
        detail: msg('problems.storeFull.detail'),
        retryAfterSeconds: STORE_FULL_RETRY_AFTER_S,
      },
      headers: { 'Retry-After': String(STORE_FULL_RETRY_AFTER_S) },
    };
  }
  if (isStoreUnavailable(err)) {
    log.warn('handler.store_unavailable', { error: err instanceof Error ? err.message : String(err) });
    return {
      problem: {
        type: STORE_UNAVAILABLE_PROBLEM,
        title: msg('problems.storeUnavailable.title'),
        status: 503,
        detail: msg('problems.storeUnavailable.detail'),
        retryAfterSeconds: STORE_RETRY_AFTER_S,
      },
      headers: { 'Retry-After': String(STORE_RETRY_AFTER_S) },
    };
  }
  log.error('handler.unexpected', { error: err instanceof Error ? err.message : String(err) });
  return {
    problem: {
      type: `${TYPE_BASE}internal`,
      title: msg('problems.internal.title'),
      status: 500,
      detail: msg('problems.internal.detail'),
    },
    headers: {},
  };
}

/** A JSON answer. */
export function json(body: unknown, init: ResponseInit = {}): Response {
  return jsonResponse(JSON.stringify(body), init);
}

/** A JSON answer already written, as text or UTF-8 bytes (lib/search/page-json.ts). */
export function jsonResponse(body: string | Uint8Array, init: ResponseInit = {}): Response {
  // Bytes go out as a stream of one chunk: a Response given bytes copies them into a byte stream
  // of its own, which costs twice as much (measured).
  const content =
    typeof body === 'string'
      ? body
      : new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(body);
            controller.close();
          },
        });
  return new Response(content, {
    ...init,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...(init.headers ?? {}) },
  });
}
