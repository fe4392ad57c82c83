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
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i;

/**
 * The store's disk is full (SQLite's SQLITE_FULL, PostgreSQL's disk_full 53100, the OS's ENOSPC and
 * EDQUOT): reads still work, writes fail until space comes back. Worth trying again later; what was
 * stored is kept.
 */
const FULL_CODES = new Set(['SQLITE_FULL', '53100', 'ENOSPC', 'EDQUOT']);

/** `could not extend file … No space left on device` and its kin, when a driver gives no code. */
const FULL_MESSAGES = /No space left on device|database or disk is full|disk quota exceeded/i;

export function isStoreFull(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && FULL_CODES.has(code)) return true;
    if (e instanceof Error && FULL_MESSAGES.test(e.message)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** The store cannot take writes for now (out of reach, or its disk full): try again later, nothing is lost. */
export function isStoreBlocked(err: unknown): boolean {
  return isStoreUnavailable(err) || isStoreFull(err);
}

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

/** What `work` answers, or `fallback` when it fails for want of the store; any other failure is thrown. */
export async function unlessStoreUnavailable<T, F>(work: Promise<T>, fallback: F): Promise<T | F> {
  try {
    return await work;
  } catch (err) {
    if (isStoreUnavailable(err)) return fallback;
    throw err;
  }
}

/** How long whenStoreAnswers waits for a full disk (see there). */
const FULL_WAIT_MS = 3_000;

/** Longest single wait between two tries of whenStoreAnswers. */
const LONGEST_WAIT_MS = 8_000;

/**
 * Runs `work` again while it fails for want of the store (out of reach, or its disk full), waiting
 * 1 s, 2 s, 4 s, then 8 s between tries, for at most `maxWaitMs` in all. For what must not be lost
 * to a short outage (a database restarting, a disk freed by an operator): an upstream page already
 * paid for (a longer one is lib/background/paid-pages.ts's). Any other failure, the last one, or one after
 * `signal` aborts is thrown as it came. `work` is run whole each time, so it should read what it
 * needs afresh.
 */
export async function whenStoreAnswers<T>(
  work: () => Promise<T>,
  opts: { maxWaitMs: number; signal?: AbortSignal; onWait?: (err: unknown, waitMs: number) => void },
): Promise<T> {
  let waited = 0;
  for (let attempt = 0; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      if (!isStoreBlocked(err) || waited >= opts.maxWaitMs || opts.signal?.aborted) throw err;
      // A disk is freed by a person, not within seconds: after a short wait the caller holds what it
      // must not lose (lib/background/paid-pages.ts) and tries again later, rather than stall here.
      if (isStoreFull(err) && waited >= FULL_WAIT_MS) throw err;
      const waitMs = Math.min(LONGEST_WAIT_MS, 1000 * 2 ** attempt, opts.maxWaitMs - waited);
      opts.onWait?.(err, waitMs);
      const slept = await pause(waitMs, opts.signal);
      if (!slept) throw err;
      waited += waitMs;
    }
  }
}

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
function pause(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (slept: boolean) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(slept);
    };
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
