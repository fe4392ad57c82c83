/**
 * Which days of a query Insights may count: a day in the query's zone is counted only when the
 * local history holds every record of its part of the range — all the UTC days it touches are
 * complete copies — so a chart is never drawn over a partly copied day. The rest is said, with why
 * it is left out. Pure.
 */
import type { DayState } from './api';
import { heldByDay, merge, type Interval } from '../history';
import { joinRanges, type TimeRange } from '../query/ranges';
import { DAY_MS as UTC_DAY_MS } from '../time/units';
import { lastSettledDay, startOf } from '../history';
import type { Zone } from '../time/zones';
import { daySegments, type DaySegment } from '../time/zone-days';

export type { DayState };

export interface CoveredDay extends DaySegment {
  state: DayState;
}

export interface HeldDays {
  /** UTC days (YYYY-MM-DD) the local history holds completely. */
  complete: readonly string[];
  /** UTC days being copied now (read, or being built). */
  syncing: readonly string[];
  /** Instants before this are settled (lib/cache/cache-policy.ts). */
  settledBefore: number;
}

/** What complete UTC days hold, merged (lib/history/held.ts: each with the next midnight's records). */
export function heldIntervals(completeDays: readonly string[]): Interval[] {
  return merge(completeDays.map(heldByDay));
}

function covered(held: readonly Interval[], from: number, to: number): boolean {
  return held.some((h) => h.from <= from && h.until > to);
}

function touchesAny(days: ReadonlySet<string>, from: number, to: number): boolean {
  for (let t = Math.floor(from / UTC_DAY_MS) * UTC_DAY_MS; t <= to; t += UTC_DAY_MS) {
    if (days.has(new Date(t).toISOString().slice(0, 10))) return true;
  }
  return false;
}

/** Each zone day of [from, to] with whether it is counted, and if not why. */
export function coverDays(from: number, to: number, zone: Zone, held: HeldDays): CoveredDay[] {
  const intervals = heldIntervals(held.complete);
  const syncing = new Set(held.syncing);
  // The copy reads whole UTC days once settled: the last it can hold ends at the next midnight. A
  // zone day reaching past that (a JST day needs two UTC days) is not settled yet, even when its
  // own end is.
  const syncableUntil = startOf(lastSettledDay(held.settledBefore)) + UTC_DAY_MS;
  return daySegments(from, to, zone).map((segment) => {
    let state: DayState;
    if (covered(intervals, segment.from, segment.to)) state = 'complete';
    else if (segment.to > syncableUntil) state = 'unsettled';
    else if (touchesAny(syncing, segment.from, segment.to)) state = 'syncing';
    else state = 'missing';
    return { ...segment, state };
  });
}

/** The counted days as ranges to read (adjacent days joined), inclusive ms. */
export function countedRanges(days: readonly CoveredDay[]): TimeRange[] {
  return joinRanges(days.filter((d) => d.state === 'complete'));
}
