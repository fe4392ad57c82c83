/**
 * The picker's range presets. Computed when clicked (never at import time) in the zone the user
 * chose: "today" in JST starts at midnight in Tokyo, not in the server's or the browser's zone.
 *
 * Rolling presets end at the next whole minute rather than at this second: pressing the same
 * preset twice within a minute then asks for the very same range, which the server answers from
 * its cache instead of spending another upstream call.
 */
import { formatWallClock, parseWallClock, type Zone } from '../time/zones';
import type { WallRange } from '../query/draft';
import { SEARCH_MAX_RANGE_MS } from '../query/query';
import { DAY_MS, HOUR_MS } from '../time/units';

export type PresetId =
  'last-hour' | 'today' | 'yesterday' | 'last-24-hours' | 'last-7-days' | 'this-month' | 'last-31-days';

/** The next whole minute strictly after `now` (so "today" at 00:00:00 is still one minute long). */
function endOfRolling(now: Date): Date {
  const minute = 60_000;
  return new Date(Math.floor(now.getTime() / minute) * minute + minute);
}

/**
 * Midnight starting a calendar day in `zone`, as an instant: today's, or `offsetDays` away, or the
 * first of the month. Calendar arithmetic is done on the zone's date alone (via UTC fields), so
 * neither the browser's nor the server's own zone can leak in.
 */
function zonedMidnight(now: Date, zone: Zone, offsetDays = 0, monthStart = false): Date {
  const [y, m, d] = formatWallClock(now, zone).slice(0, 10).split('-').map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, monthStart ? 1 : d + offsetDays));
  const midnight = parseWallClock(`${day.toISOString().slice(0, 10)} 00:00:00`, zone);
  // A day made by Date.UTC is always a calendar day.
  if (!midnight) throw new RangeError(`No midnight for ${day.toISOString()}`);
  return midnight;
}

/** A preset's name is the catalogue's (`search.range.preset.<id>`, messages/<locale>/search.json). */
interface Preset {
  id: PresetId;
  range(now: Date, zone: Zone): { from: Date; to: Date };
}

const rolling = (ms: number) => (now: Date) => {
  const to = endOfRolling(now);
  return { from: new Date(to.getTime() - ms), to };
};

export const RANGE_PRESETS: readonly Preset[] = [
  { id: 'last-hour', range: rolling(HOUR_MS) },
  { id: 'today', range: (now, zone) => ({ from: zonedMidnight(now, zone), to: endOfRolling(now) }) },
  {
    id: 'yesterday',
    // To today's first instant: date-to is read to the second while records carry milliseconds, so
    // ending at 23:59:59 would leave out the records of yesterday's last second (23:59:59.001 on).
    range: (now, zone) => ({ from: zonedMidnight(now, zone, -1), to: zonedMidnight(now, zone) }),
  },
  { id: 'last-24-hours', range: rolling(DAY_MS) },
  { id: 'last-7-days', range: rolling(7 * DAY_MS) },
  {
    id: 'this-month',
    range: (now, zone) => ({ from: zonedMidnight(now, zone, 0, true), to: endOfRolling(now) }),
  },
  // The longest range a search may span.
  { id: 'last-31-days', range: rolling(SEARCH_MAX_RANGE_MS) },
];

export const DEFAULT_PRESET: PresetId = 'last-24-hours';

/** The preset's range as wall clocks in `zone`, computed against `now`. */
export function presetRange(id: PresetId, now: Date, zone: Zone): WallRange {
  const preset = RANGE_PRESETS.find((p) => p.id === id);
  if (!preset) throw new Error(`unknown preset ${id}`);
  const { from, to } = preset.range(now, zone);
  return { dateFrom: formatWallClock(from, zone), dateTo: formatWallClock(to, zone) };
}
