/**
 * Time zones and the upstream's timestamp formats. Instants travel as UTC `Date`s; a zone is only
 * applied when a wall-clock value is read from or written for a person (or for the upstream's
 * `date-from`/`date-to`, which the upstream reads in its `tz`).
 */
export const ZONES = ['UTC', 'JST'] as const;
export type Zone = (typeof ZONES)[number];

export const IANA_ZONE: Record<Zone, string> = { UTC: 'UTC', JST: 'Asia/Tokyo' };

/**
 * Offsets of the zones in minutes. Asia/Tokyo has kept UTC+9 without daylight saving since 1951,
 * so for every instant the upstream can hold JST is a fixed offset: the record timestamps (every
 * timestamp of every answer) and the wall clocks of a query (every request, every link of an
 * answer) are written and read with it instead of a time-zone database lookup, which costs tens of
 * microseconds each. Wall clocks outside the years where the offset is known to hold take the
 * zone's offset at that instant from the platform's time-zone database (databaseOffsetMs); a test
 * checks both agree with date-fns-tz's formatter.
 */
const OFFSET_MINUTES: Record<Zone, number> = { UTC: 0, JST: 9 * 60 };
/** Tokyo's last daylight saving time ended in September 1951; four-digit years end at 9999. */
const FIXED_OFFSET_FROM_YEAR = 1952;
const FIXED_OFFSET_TO_YEAR = 9999;

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/** A wall clock's parts as the UTC instant of the same reading (years 0–99 kept: Date.UTC would read them as 19xx). */
function utcOfParts(year: number, month: number, day: number, hour: number, minute: number, second: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, 0);
  return d.getTime();
}

const DATABASE_FORMATS = new Map<string, Intl.DateTimeFormat>();

/**
 * A zone's offset from UTC at an instant, in ms, from the platform's time-zone database (Intl),
 * for the years outside the fixed offsets (Tokyo kept summer time in 1948–1951, and local mean
 * time before 1888). Not date-fns-tz's: in the browser it costs 2.4 kB gzip on every page.
 */
function databaseOffsetMs(timeZone: string, ms: number): number {
  let format = DATABASE_FORMATS.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    DATABASE_FORMATS.set(timeZone, format);
  }
  const part = Object.fromEntries(format.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
  const year = part.era === 'BC' || part.era === 'B' ? 1 - Number(part.year) : Number(part.year);
  const wall = utcOfParts(
    year,
    Number(part.month),
    Number(part.day),
    Number(part.hour),
    Number(part.minute),
    Number(part.second),
  );
  return wall - Math.floor(ms / 1000) * 1000;
}

/** The instant a wall clock of `timeZone` names (`wall`: that reading as if it were UTC). */
function fromDatabaseWallClock(wall: number, timeZone: string): Date {
  // The offset at the instant depends on the instant: guess, then correct once (a transition in between).
  const first = wall - databaseOffsetMs(timeZone, wall);
  const offset = databaseOffsetMs(timeZone, first);
  return new Date(wall - offset);
}
const pad4 = (n: number) => String(n).padStart(4, '0');

/** The seed's parameter format: `YYYY-MM-DD HH:MM:SS`. */
export const WALL_CLOCK_PATTERN = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * Reads a wall-clock time (`YYYY-MM-DD HH:MM:SS`, or the `T`/no-seconds form a datetime-local input
 * gives) in `zone`. Returns null for anything that is not a real calendar time (2026-02-30 included).
 */
export function parseWallClock(value: string, zone: Zone): Date | null {
  const m = WALL_CLOCK_PATTERN.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s = '00'] = m;
  const parts = [Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s)];
  const [year, month, day, hour, minute, second] = parts as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  // Reject 2026-02-30 and friends: the calendar day must survive a round trip.
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) return null;
  if (year >= FIXED_OFFSET_FROM_YEAR && year <= FIXED_OFFSET_TO_YEAR) {
    return new Date(Date.UTC(year, month - 1, day, hour, minute, second) - OFFSET_MINUTES[zone] * 60_000);
  }
  return fromDatabaseWallClock(utcOfParts(year, month, day, hour, minute, second), IANA_ZONE[zone]);
}

/**
 * The last instants written, by zone: every answer writes its range's two ends several times (the
 * upstream's query, every link), and the same searches come again and again. Cleared when full.
 */
const WRITTEN: Record<Zone, Map<number, string>> = { UTC: new Map(), JST: new Map() };
const WRITTEN_MAX = 1024;

/** Writes an instant as `YYYY-MM-DD HH:MM:SS` in `zone` (the seed's parameter format). */
export function formatWallClock(instant: Date, zone: Zone): string {
  const ms = instant.getTime();
  const written = WRITTEN[zone];
  const known = written.get(ms);
  if (known !== undefined) return known;
  const text = writeWallClock(instant, zone);
  if (written.size >= WRITTEN_MAX) written.clear();
  written.set(ms, text);
  return text;
}

/** An instant to the minute in `zone`, `YYYY-MM-DD HH:MM`: how a time is shown where seconds are noise (an export's range, its ETA). */
export function formatWallMinute(instant: Date, zone: Zone): string {
  return formatWallClock(instant, zone).slice(0, 16);
}

function writeWallClock(instant: Date, zone: Zone): string {
  const ms = instant.getTime();
  if (Number.isNaN(ms)) throw new RangeError('Invalid time value');
  const fixed = new Date(ms + OFFSET_MINUTES[zone] * 60_000);
  const year = fixed.getUTCFullYear();
  // Outside the years of the fixed offset, the time-zone database's offset at that instant (Tokyo
  // kept summer time in 1948–1951). Not date-fns-tz's formatter: in the browser it brings date-fns's
  // whole formatting and English locale (9 kB gzip) to every page that shows a time.
  const wall =
    year >= FIXED_OFFSET_FROM_YEAR && year <= FIXED_OFFSET_TO_YEAR
      ? fixed
      : new Date(ms + databaseOffsetMs(IANA_ZONE[zone], ms));
  return `${pad4(wall.getUTCFullYear())}-${pad2(wall.getUTCMonth() + 1)}-${pad2(wall.getUTCDate())} ${pad2(wall.getUTCHours())}:${pad2(wall.getUTCMinutes())}:${pad2(wall.getUTCSeconds())}`;
}

const UPSTREAM_TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?\s*(?:(Z)|([+-])(\d{2}):?(\d{2}))?$/;

/**
 * Reads a record's timestamp: `2024-01-05T12:34:56.789+0000` as in the sample, and the variants the
 * docs mention (`+00:00`, `Z`, a space instead of `T`, no milliseconds). A timestamp without an
 * offset is read as UTC. Returns null for "" (not applicable) or anything unreadable.
 *
 * Worked out from the numbers rather than through `new Date(text)`: every record carries three of
 * these and a copied day holds tens of thousands of records. It accepts what the ISO reading
 * accepts (a day past the month's end runs on into the next month, 24:00:00 is the next midnight)
 * and refuses what it refuses (month 13, minute or second 60, an offset past 23:59).
 */
export function parseUpstreamTimestamp(value: string): Date | null {
  const ms = upstreamTimestampMs(value);
  return ms === null ? null : new Date(ms);
}

/** parseUpstreamTimestamp as epoch ms (no Date made: a copied day reads tens of thousands). */
export function upstreamTimestampMs(value: string): number | null {
  const m = UPSTREAM_TIMESTAMP.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac, , sign, oh, om] = m;
  const year = Number(y);
  const [month, day, hour, minute, second] = [Number(mo), Number(d), Number(h), Number(mi), Number(s)];
  // More digits than milliseconds round to the nearest one (.9996 is the next second).
  const ms = frac === undefined ? 0 : Math.round(Number(`0.${frac}`) * 1000);
  const offsetMinutes = sign === undefined ? 0 : (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om));
  const midnightOnly = hour === 24 && (minute > 0 || second > 0 || ms > 0);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 24 || midnightOnly || minute > 59 || second > 59)
    return null;
  if (sign !== undefined && (Number(oh) > 23 || Number(om) > 59)) return null;
  // Date.UTC reads the years 0–99 as 1900–1999: those go through setUTCFullYear.
  const midnight = year >= 100 ? Date.UTC(year, month - 1, day) : new Date(0).setUTCFullYear(year, month - 1, day);
  return midnight + ((hour * 60 + minute - offsetMinutes) * 60 + second) * 1000 + ms;
}

/** The zone's offset from UTC in ms (fixed for every instant the upstream can hold: see OFFSET_MINUTES), for day and hour boundaries in the zone. */
export function zoneOffsetMs(zone: Zone): number {
  return OFFSET_MINUTES[zone] * 60_000;
}

/** Writes an instant the way the sample does: `YYYY-MM-DDTHH:MM:SS.mmm+0900`. */
export function formatUpstreamTimestamp(instant: Date, zone: Zone): string {
  const offset = OFFSET_MINUTES[zone];
  const d = new Date(instant.getTime() + offset * 60_000);
  const ms = d.getUTCMilliseconds();
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return (
    `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}T${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}` +
    `.${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}${sign}${pad2(Math.floor(abs / 60))}${pad2(abs % 60)}`
  );
}

const SAMPLE_SHAPE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}([+-]\d{4})$/;
const OFFSET_TEXT: Record<Zone, string> = { UTC: '+0000', JST: '+0900' };

/** Rewrites a record's timestamp into `zone`; "" and unreadable values pass through unchanged. */
export function rezoneTimestamp(value: string, zone: Zone): string {
  // Already in the sample's shape and this zone's offset (the usual case): nothing to do.
  const m = SAMPLE_SHAPE.exec(value);
  if (m && m[1] === OFFSET_TEXT[zone]) return value;
  const instant = parseUpstreamTimestamp(value);
  return instant ? formatUpstreamTimestamp(instant, zone) : value;
}

/**
 * The same instant's wall clock in another zone; a value that is not a wall clock passes through
 * unchanged (a person still typing it: the query's parser says what is wrong with it).
 */
export function rezoneWallClock(wallClock: string, from: Zone, to: Zone): string {
  if (from === to) return wallClock;
  const instant = parseWallClock(wallClock, from);
  return instant ? formatWallClock(instant, to) : wallClock;
}
