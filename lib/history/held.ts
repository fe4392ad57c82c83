/**
 * What the local history holds, as instants: half-open intervals (`until` excluded), since a
 * complete day's sync asks the upstream up to the next day's first instant and keeps that
 * instant's records too (sync-day-progress.ts). The planner (lib/search/planner.ts) and Insights
 * read complete days by this one rule. Pure.
 */
import { joinRanges } from '../query/ranges';
import { DAY_MS } from '../time/units';
import { startOf } from './days';

export interface Interval {
  /** Inclusive, ms. */
  from: number;
  /** Exclusive, ms. */
  until: number;
}

/** The instants a complete UTC day holds: [D 00:00:00.000, D+1 00:00:00.000], both included. */
export function heldByDay(day: string): Interval {
  const start = startOf(day);
  return { from: start, until: start + DAY_MS + 1 };
}

/** Overlapping or touching intervals as one, in time order. */
export function merge(intervals: readonly Interval[]): Interval[] {
  const inclusive = intervals.filter((i) => i.until > i.from).map((i) => ({ from: i.from, to: i.until - 1 }));
  return joinRanges(inclusive).map((r) => ({ from: r.from, until: r.to + 1 }));
}
