import 'server-only';
import { brandCheck } from '../errors/brand';
/**
 * Every error of the dashboard's API is RFC 9457 problem details (application/problem+json), with
 * `errors` per parameter for 400 and Retry-After for 429/503. The messages say what happened and
 * what to do; they never carry a token, a secret or a record's content.
 */
import { CREDENTIALS_REFUSED_PROBLEM, UPSTREAM_UNAUTHORIZED_PROBLEM, type Problem, type SessionsEndReason } from '../api/types';
import { QuotaExceededError } from '../governor/governor';
import { log } from '../log';
import { isStoreUnavailable } from '../store/db/unavailable';
import { CredentialsRefusedError, UpstreamError } from '../upstream';

const TYPE_BASE = '/problems/';

const PROBLEMERROR_BRAND = brandCheck('ProblemError');

export class ProblemError extends Error {
  /** Recognised across bundled copies of this module (lib/errors/brand.ts). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return PROBLEMERROR_BRAND.hasInstance(value);
  }
  readonly [PROBLEMERROR_BRAND.brand] = true;

  constructor(
    readonly problem: Problem,
    readonly headers: Record<string, string> = {},
  ) {
    super(problem.detail ?? problem.title);
    this.name = 'ProblemError';
  }
}

export function problemResponse(problem: Problem, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(problem), {
    status: problem.status,
    headers: { 'Content-Type': 'application/problem+json', 'Cache-Control': 'no-store', ...headers },
  });
}

export function badRequest(errors: Record<string, string>): ProblemError {
  const fields = Object.keys(errors);
  return new ProblemError({
    type: `${TYPE_BASE}invalid-query`,
    title: 'The request has invalid parameters',
    status: 400,
    detail: `Fix ${fields.join(', ')} and try again. No upstream call was made.`,
    errors,
  });
}

/**
 * The 401 of a request without a live session. `ended`: why its session ended when every session
 * of its API key was ended at once (lib/auth/end-sessions.ts), said to each of them.
 */
export function unauthenticated(ended: SessionsEndReason | null = null): ProblemError {
  const challenge = { 'WWW-Authenticate': 'Session realm="SMS history dashboard", sign-in="/signin"' };
  if (ended === 'credentials-refused') {
    return new ProblemError(
      {
        type: CREDENTIALS_REFUSED_PROBLEM,
        title: CREDENTIALS_REFUSED_TITLE,
        status: 401,
        detail: 'When the access token was renewed, the Report API refused the secret this session was signed in with: it was probably changed. Every session of this API key signed in with it has been signed out; sign in again with the current secret.',
      },
      challenge,
    );
  }
  return new ProblemError(
    {
      type: `${TYPE_BASE}unauthenticated`,
      title: 'Sign in first',
      status: 401,
      detail:
        ended === 'signed-out-everywhere'
          ? 'Every session of this API key was signed out ("sign out everywhere"). Sign in again at /signin with your Report API key and secret.'
          : 'This needs a signed-in session: sign in at /signin with your Report API key and secret.',
    },
    // A 401 names how to authenticate (RFC 9110 §11.6.1): a session, got at the sign-in page.
    challenge,
  );
}

const CREDENTIALS_REFUSED_TITLE = 'The Report API no longer accepts this API key\u2019s secret';

export function notFound(detail: string): ProblemError {
  return new ProblemError({ type: `${TYPE_BASE}not-found`, title: 'Not found', status: 404, detail });
}

/**
 * A body over `maxBodyBytes`; `whatToSend` tells the client what the endpoint does take. `headers`:
 * `Connection: close` when the rest of the body is left unread on the connection.
 */
export function payloadTooLarge(maxBodyBytes: number, whatToSend: string, headers: Record<string, string> = {}): ProblemError {
  const detail = `This endpoint takes a body of at most ${maxBodyBytes} bytes (${maxBodyBytes / 1024} KiB); it was not read past that. ${whatToSend}`;
  return new ProblemError({ type: `${TYPE_BASE}payload-too-large`, title: 'The request body is too large', status: 413, detail, maxBodyBytes }, headers);
}

export function crossSiteRefused(): ProblemError {
  return new ProblemError({
    type: `${TYPE_BASE}cross-site`,
    title: 'Refused: the request did not come from the dashboard',
    status: 403,
    detail:
      'This request can spend upstream calls, so it must come from the dashboard\u2019s own pages or from a script (a client that sends no Sec-Fetch-Site or Origin header). It came from another site or origin. Open the dashboard and search there. No upstream call was made.',
  });
}

const STORE_UNAVAILABLE_PROBLEM = `${TYPE_BASE}store-unavailable`;
/** When to try again while the store cannot be reached: a database restart or failover takes seconds to a minute. */
export const STORE_RETRY_AFTER_S = 15;

function retryAfterSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/** The 503 of a store out of reach, for a handler that otherwise lets errors through (next-auth's); null for any other error. */
export function storeUnavailableResponse(err: unknown): Response | null {
  if (!isStoreUnavailable(err)) return null;
  const { problem, headers } = toProblem(err);
  return problemResponse(problem, headers);
}

/** Maps anything a handler throws to the problem a client should see. */
export function toProblem(err: unknown): { problem: Problem; headers: Record<string, string> } {
  if (err instanceof ProblemError) return { problem: err.problem, headers: err.headers };
  if (err instanceof QuotaExceededError) {
    const seconds = retryAfterSeconds(err.retryAfterMs);
    return {
      problem: {
        type: `${TYPE_BASE}quota`,
        title: 'Waiting for the upstream\u2019s next free call',
        status: 429,
        detail: err.message,
        retryAfterSeconds: seconds,
        limitedBy: err.limitedBy,
        limitScope: err.scope,
        nextCallAt: new Date(err.nextCallAt).toISOString(),
        reason: err.reason,
      },
      headers: { 'Retry-After': String(seconds) },
    };
  }
  if (err instanceof CredentialsRefusedError) return { problem: credentialsRefused(err), headers: {} };
  if (err instanceof UpstreamError) return upstreamProblem(err);
  if (isStoreUnavailable(err)) {
    log.warn('handler.store_unavailable', { error: err instanceof Error ? err.message : String(err) });
    return {
      problem: {
        type: STORE_UNAVAILABLE_PROBLEM,
        title: 'The dashboard cannot reach its database right now',
        status: 503,
        detail: 'Its database (PostgreSQL, or its SQLite file) did not answer. What it stored before is kept; try again in a moment.',
        retryAfterSeconds: STORE_RETRY_AFTER_S,
      },
      headers: { 'Retry-After': String(STORE_RETRY_AFTER_S) },
    };
  }
  log.error('handler.unexpected', { error: err instanceof Error ? err.message : String(err) });
  return {
    problem: { type: `${TYPE_BASE}internal`, title: 'Something went wrong on our side', status: 500, detail: 'The error was logged. Try again; if it persists, tell the team.' },
    headers: {},
  };
}

function credentialsRefused(err: CredentialsRefusedError): Problem {
  return {
    type: CREDENTIALS_REFUSED_PROBLEM,
    title: CREDENTIALS_REFUSED_TITLE,
    status: 401,
    detail: `It refused the secret this dashboard held for ${err.apiKey} when the access token was renewed: the secret was probably changed. Every session of ${err.apiKey} here has been signed out; sign in again with the current secret.`,
  };
}

function upstreamProblem(err: UpstreamError): { problem: Problem; headers: Record<string, string> } {
  const said = err.upstreamMessage ? ` The Report API said: \u201c${err.upstreamMessage}\u201d.` : '';
  const wait = err.retryAfterMs !== undefined ? retryAfterSeconds(err.retryAfterMs) : undefined;
  switch (err.kind) {
    case 'bad_request':
      return { problem: { type: `${TYPE_BASE}upstream-rejected`, title: 'The Report API rejected the query', status: 400, detail: `Change the query and try again.${said}` }, headers: {} };
    case 'unauthorized':
      // Refused even with a token just renewed: the session here is fine, the upstream is not
      // taking this key's queries (for now, or for good).
      return { problem: { type: UPSTREAM_UNAUTHORIZED_PROBLEM, title: 'The Report API refused the query', status: 401, detail: `It answered 401 even with a freshly renewed token. Try again in a moment; if it keeps happening, sign in again and check that the API key and secret are still valid.${said}` }, headers: {} };
    case 'forbidden':
      return { problem: { type: `${TYPE_BASE}upstream-forbidden`, title: 'Your account may not see this', status: 403, detail: `The Report API refused access (for example to another enterprise).${said}` }, headers: {} };
    case 'not_found':
      return { problem: { type: `${TYPE_BASE}not-found`, title: 'Not found', status: 404, detail: `The Report API has no such record for your account.${said}` }, headers: {} };
    case 'rate_limited': {
      const seconds = wait ?? 60;
      return {
        problem: { type: `${TYPE_BASE}quota`, title: 'The Report API asked us to slow down', status: 429, detail: `Your account's calls are held for ${seconds} s; the page retries by itself.`, retryAfterSeconds: seconds, limitedBy: 'upstream', nextCallAt: new Date(Date.now() + seconds * 1000).toISOString() },
        headers: { 'Retry-After': String(seconds) },
      };
    }
    case 'unavailable': {
      const seconds = wait ?? 30;
      return { problem: { type: `${TYPE_BASE}upstream-unavailable`, title: 'The Report API is unavailable', status: 503, detail: `It answered with an error (${err.status ?? 'no status'}). Try again in ${seconds} s.`, retryAfterSeconds: seconds }, headers: { 'Retry-After': String(seconds) } };
    }
    case 'timeout':
      return { problem: { type: `${TYPE_BASE}upstream-timeout`, title: 'The Report API did not answer in time', status: 504, detail: 'Try again in a moment; a narrower range or more filters answer faster.', retryAfterSeconds: 30 }, headers: { 'Retry-After': '30' } };
    case 'malformed':
      return { problem: { type: `${TYPE_BASE}upstream-malformed`, title: 'The Report API sent an answer we could not read', status: 502, detail: 'Nothing was shown rather than a wrong page. Try again in a moment.', retryAfterSeconds: 30 }, headers: { 'Retry-After': '30' } };
    case 'network':
    default:
      return { problem: { type: `${TYPE_BASE}upstream-unreachable`, title: 'The Report API cannot be reached', status: 502, detail: 'Check the connection to the upstream (UPSTREAM_BASE_URL) and try again.', retryAfterSeconds: 30 }, headers: { 'Retry-After': '30' } };
  }
}

/** A JSON answer. */
export function json(body: unknown, init: ResponseInit = {}): Response {
  return jsonResponse(JSON.stringify(body), init);
}

/** A JSON answer already written, as text or UTF-8 bytes (lib/http/page-json.ts). */
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
