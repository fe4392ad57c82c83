import 'server-only';
import { brandCheck } from '../errors/brand';
/**
 * Every error of the dashboard's API is RFC 9457 problem details (application/problem+json), with
 * `errors` per parameter for 400 and Retry-After for 429/503. The messages say what happened and
 * what to do; they never carry a token, a secret or a record's content.
 */
import { type Problem } from './problem-types';
import { log } from '../log';
import { isStoreFull, isStoreUnavailable } from '../db/unavailable';

/** Every problem type is a path under this. */
export const TYPE_BASE = '/problems/';

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

export function notFound(detail: string): ProblemError {
  return new ProblemError({ type: `${TYPE_BASE}not-found`, title: 'Not found', status: 404, detail });
}

/**
 * A body over `maxBodyBytes`; `whatToSend` tells the client what the endpoint does take. `headers`:
 * `Connection: close` when the rest of the body is left unread on the connection.
 */
export function payloadTooLarge(
  maxBodyBytes: number,
  whatToSend: string,
  headers: Record<string, string> = {},
): ProblemError {
  const detail = `This endpoint takes a body of at most ${maxBodyBytes} bytes (${maxBodyBytes / 1024} KiB); it was not read past that. ${whatToSend}`;
  return new ProblemError(
    {
      type: `${TYPE_BASE}payload-too-large`,
      title: 'The request body is too large',
      status: 413,
      detail,
      maxBodyBytes,
    },
    headers,
  );
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

export function retryAfterSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/** When to try again while the store's disk is full: freeing space is an operator's minutes. */
export const STORE_FULL_RETRY_AFTER_S = 60;

/**
 * The 503 of a store out of reach (507 of one whose disk is full), for a handler that otherwise
 * lets errors through (next-auth's); null for any other error.
 */
export function storeUnavailableResponse(err: unknown): Response | null {
  if (!isStoreUnavailable(err) && !isStoreFull(err)) return null;
  const { problem, headers } = kernelProblem(err);
  return problemResponse(problem, headers);
}

/**
 * The problems of the kernel's own errors: a ProblemError as it says, a store whose disk is full
 * (507), a store out of reach (503), anything else a fault of ours (500, its text logged, never shown). Features map their own errors
 * first (lib/root/error-problems.ts).
 */
export function kernelProblem(err: unknown): { problem: Problem; headers: Record<string, string> } {
  if (err instanceof ProblemError) return { problem: err.problem, headers: err.headers };
  if (isStoreFull(err)) {
    log.error('handler.store_full', { error: err instanceof Error ? err.message : String(err) });
    return {
      problem: {
        type: `${TYPE_BASE}store-full`,
        title: 'The dashboard cannot store anything right now: its disk is full',
        status: 507,
        detail:
          'Its database (PostgreSQL, or its SQLite files in DATA_DIR) has no space left. What it stored before is kept and pages already paid for are held until they can be stored; it carries on by itself once space is freed. Tell the team running the dashboard, and try again in a minute.',
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
        title: 'The dashboard cannot reach its database right now',
        status: 503,
        detail:
          'Its database (PostgreSQL, or its SQLite file) did not answer. What it stored before is kept; try again in a moment.',
        retryAfterSeconds: STORE_RETRY_AFTER_S,
      },
      headers: { 'Retry-After': String(STORE_RETRY_AFTER_S) },
    };
  }
  log.error('handler.unexpected', { error: err instanceof Error ? err.message : String(err) });
  return {
    problem: {
      type: `${TYPE_BASE}internal`,
      title: 'Something went wrong on our side',
      status: 500,
      detail: 'The error was logged. Try again; if it persists, tell the team.',
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
