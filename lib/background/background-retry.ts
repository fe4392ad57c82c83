/**
 * How background work (an export, the local history's copy) retries a call the upstream failed
 * (5xx, a timeout, a malformed answer): later each time, and not for ever. Each failed call may
 * have cost one of the account's calls, so a fault that does not pass must not spend the day's.
 */

/** Failures in a row after which the work gives up (an export stops; the copy rests the day). */
export const MAX_FAILURES = 6;

const BACKOFF_BASE_MS = 30_000;
const BACKOFF_MAX_MS = 15 * 60_000;

/** How long to wait after the `failures`-th failure in a row: 30 s, 1 min, 2 min, … up to 15 min. */
export function backoffMs(failures: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, failures - 1));
}
