/**
 * The local history copies whole UTC days: [D 00:00:00.000, D+1 00:00:00.000). A day is settled
 * when its end is older than the cache's settled age (lib/cache/cache-policy.ts): its records no
 * longer change. Days are written `YYYY-MM-DD`.
 */
import { utcDayOf } from '../time/zone-days';
import { DAY_MS } from '../time/units';

const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The UTC day (`YYYY-MM-DD`) an instant falls on (lib/time/zone-days.ts owns the rule). */
export const dayOf = utcDayOf;

/** The day's first instant (ms), or null for something that is not a real day. */
export function dayStart(day: string): number | null {
  const m = DAY_PATTERN.exec(day);
  if (!m) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return dayOf(ms) === day ? ms : null;
}

export function startOf(day: string): number {
  const ms = dayStart(day);
  if (ms === null) throw new RangeError(`not a day: ${day}`);
  return ms;
}

export function addDays(day: string, n: number): string {
  return dayOf(startOf(day) + n * DAY_MS);
}

/** Days from `from` to `to`, both included, oldest first (none when to < from). */
export function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = startOf(from), end = startOf(to); t <= end; t += DAY_MS) out.push(dayOf(t));
  return out;
}

/** The newest day whose every record is settled before `settledBefore` (its end is not later). */
export function lastSettledDay(settledBefore: number): string {
  return dayOf(Math.floor(settledBefore / DAY_MS) * DAY_MS - DAY_MS);
}
