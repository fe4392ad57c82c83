/**
 * Sliding-window arithmetic over the ledger, kept pure so it can be tested without a clock.
 * A call sent at `t` occupies every window of length `ms` until `t + ms` (sliding windows are the
 * safe reading of "3 a minute, 10 an hour, 100 a day": they never allow a burst at a boundary).
 */
import type { WindowName } from './api';
import { MAX_WINDOW_MARGIN_MS } from '../config';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../time/units';

export interface WindowLimit {
  name: WindowName;
  ms: number;
  limit: number;
}

/** The largest arrival margin (see `windowLimits`). */
export const MAX_ARRIVAL_MARGIN_MS = MAX_WINDOW_MARGIN_MS;
/** How far back the governor's state must reach: the day window and its margin. */
export const STATE_SPAN_MS = DAY_MS + MAX_ARRIVAL_MARGIN_MS;

/**
 * The three windows. `marginMs` keeps each call in its windows that much longer. A call already
 * counts from when its answer came (never earlier than the upstream counted its arrival); the
 * margin covers what we cannot see of the upstream's own clock — a count rounded up to the whole
 * second, a window measured a little longer than ours.
 */
export function windowLimits(l: { perMinute: number; perHour: number; perDay: number }, marginMs = 0): WindowLimit[] {
  return [
    { name: 'minute', ms: MINUTE_MS + marginMs, limit: l.perMinute },
    { name: 'hour', ms: HOUR_MS + marginMs, limit: l.perHour },
    { name: 'day', ms: DAY_MS + marginMs, limit: l.perDay },
  ];
}

export interface WindowUsage {
  name: WindowName;
  limit: number;
  used: number;
  /** When the oldest call in the window leaves it, or null when the window is empty. */
  oldestLeavesAt: number | null;
  /** When a call becomes possible in this window (<= now when it is possible now). */
  allowsAt: number;
}

/** `calls` are send times, sorted ascending. */
export function usage(calls: readonly number[], now: number, w: WindowLimit): WindowUsage {
  const start = now - w.ms;
  // Index of the first call still inside the window (calls are sorted; a linear scan from the end
  // would do too, but the day window can hold 100 calls and this runs on every decision).
  let lo = 0;
  let hi = calls.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((calls[mid] as number) > start) hi = mid;
    else lo = mid + 1;
  }
  const inWindow = calls.length - lo;
  const oldest = calls[lo];
  let allowsAt = now;
  if (w.limit <= 0) allowsAt = Number.POSITIVE_INFINITY;
  else if (inWindow >= w.limit) {
    // The window has room again when all but limit-1 of its calls have left it.
    allowsAt = (calls[lo + inWindow - w.limit] as number) + w.ms;
  }
  return {
    name: w.name,
    limit: w.limit,
    used: inWindow,
    oldestLeavesAt: oldest === undefined ? null : oldest + w.ms,
    allowsAt,
  };
}

/** The earliest moment a call fits every window, and the window that decides it (null: now). */
export function earliestCall(
  calls: readonly number[],
  now: number,
  windows: readonly WindowLimit[],
): { at: number; limitedBy: WindowName | null } {
  let at = now;
  let limitedBy: WindowName | null = null;
  for (const w of windows) {
    const u = usage(calls, now, w);
    if (u.allowsAt > at) {
      at = u.allowsAt;
      limitedBy = w.name;
    }
  }
  return { at, limitedBy };
}
