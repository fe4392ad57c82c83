/**
 * Whether an error means the store cannot be reached for now (PostgreSQL down, restarting or
 * failing over; a network between; SQLite's file locked past its wait), as opposed to a fault of
 * ours: such a request is worth trying again in a moment, and nothing about it is lost.
 */

/** Node's socket errors, PostgreSQL's "connection exception" class (08…) and its shutdowns (57P0…), SQLite's lock. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'EPIPE',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '57P01',
  '57P02',
  '57P03',
  'SQLITE_BUSY',
]);

/** node-postgres's own words for a connection lost or not made in time (these carry no code). */
const UNAVAILABLE_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i;

export function isStoreUnavailable(err: unknown): boolean {
  // The cause is followed a few steps: pools and Kysely wrap the driver's error at times.
  let e: unknown = err;
  for (let depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
    if (e instanceof Error && UNAVAILABLE_MESSAGES.test(e.message)) return true;
    if (e instanceof AggregateError && e.errors.some((inner) => isStoreUnavailable(inner))) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
