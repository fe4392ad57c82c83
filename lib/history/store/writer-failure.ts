/**
 * A failed write of the history writer's thread, as it crosses to the server's thread: its message
 * and its error code (SQLite's or PostgreSQL's, from the error or what it wraps). An Error does not
 * cross a thread whole; without its code, a store that cannot be reached (lib/db/unavailable.ts)
 * came back as an unknown error, a 500 instead of a 503 with Retry-After.
 */
export interface WriterFailure {
  message: string;
  code?: string;
}

/** How deep a wrapped error's causes are followed for a code. */
const CAUSE_DEPTH = 4;

export function failureOf(err: unknown): WriterFailure {
  const message = err instanceof Error ? err.message : String(err);
  let e: unknown = err;
  for (let depth = 0; e && depth < CAUSE_DEPTH; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return { message, code };
    e = (e as { cause?: unknown }).cause;
  }
  return { message };
}

export function errorOf(failure: WriterFailure): Error {
  const err = new Error(failure.message) as Error & { code?: string };
  if (failure.code !== undefined) err.code = failure.code;
  return err;
}
