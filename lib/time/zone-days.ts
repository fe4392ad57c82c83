/**
 * Days and hours in the query's zone. UTC and JST are fixed offsets of whole hours (lib/time/zones),
 * so a zone's day is a run of 24 UTC hours and its hour is a UTC hour: the store's hourly sums serve
 * both. Days are numbered from the epoch in the zone (day 0 = 1970-01-01 in that zone). Pure.
 */
import { zoneOffsetMs, type Zone } from './zones';
import { DAY_MS } from './units';

/** The zone day an instant falls on. */
export function zoneDayIndex(ms: number, zone: Zone): number {
  return Math.floor((ms + zoneOffsetMs(zone)) / DAY_MS);
}

/** A zone day's first instant (ms). */
export function zoneDayStart(index: number, zone: Zone): number {
  return index * DAY_MS - zoneOffsetMs(zone);
}

/** A zone day as YYYY-MM-DD (its date in that zone). */
export function zoneDayName(index: number): string {
  return new Date(index * DAY_MS).toISOString().slice(0, 10);
}

/** The UTC day (YYYY-MM-DD) of an instant: how the local history names its days. */
export function utcDayOf(ms: number): string {
  return zoneDayName(Math.floor(ms / DAY_MS));
}

/** An instant's hour in the zone as `YYYY-MM-DD HH:00` (its wall clock). */
export function zoneHourName(hourMs: number, zone: Zone): string {
  return `${new Date(hourMs + zoneOffsetMs(zone)).toISOString().slice(0, 13).replace('T', ' ')}:00`;
}

/** The part of a range that lies in one zone day: both ends inclusive, ms. */
export interface DaySegment {
  day: string;
  index: number;
  from: number;
  to: number;
}

/** The range [from, to] (inclusive, ms) cut at the zone's midnights, oldest first. */
export function daySegments(from: number, to: number, zone: Zone): DaySegment[] {
  const out: DaySegment[] = [];
  for (let index = zoneDayIndex(from, zone); index <= zoneDayIndex(to, zone); index++) {
    const start = zoneDayStart(index, zone);
    out.push({ day: zoneDayName(index), index, from: Math.max(from, start), to: Math.min(to, start + DAY_MS - 1) });
  }
  return out;
}
