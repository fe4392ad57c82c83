import { formatInTimeZone, fromZonedTime } from 'date-fns-tz';
import { describe, expect, it } from 'vitest';
import {
  formatUpstreamTimestamp,
  formatWallClock,
  IANA_ZONE,
  parseUpstreamTimestamp,
  parseWallClock,
  rezoneTimestamp,
  ZONES,
} from './zones';

describe('record timestamps', () => {
  it('are written with the fixed offset exactly as the time-zone database would, across years', () => {
    for (let t = Date.UTC(2000, 0, 1); t < Date.UTC(2031, 0, 1); t += 7_919_993_117) {
      for (const zone of ZONES) {
        expect(formatUpstreamTimestamp(new Date(t), zone)).toBe(
          formatInTimeZone(new Date(t), IANA_ZONE[zone], "yyyy-MM-dd'T'HH:mm:ss.SSSxx"),
        );
      }
    }
  });

  it('are moved between zones keeping the instant, and left alone when already right', () => {
    expect(rezoneTimestamp('2026-11-20T23:59:59.007+0000', 'JST')).toBe('2026-11-21T08:59:59.007+0900');
    expect(rezoneTimestamp('2026-11-21T08:59:59.007+0900', 'UTC')).toBe('2026-11-20T23:59:59.007+0000');
    expect(rezoneTimestamp('2026-11-20T23:59:59.007+0000', 'UTC')).toBe('2026-11-20T23:59:59.007+0000');
    expect(rezoneTimestamp('2026-11-20 23:59:59Z', 'UTC')).toBe('2026-11-20T23:59:59.000+0000');
    expect(rezoneTimestamp('', 'JST')).toBe('');
    expect(rezoneTimestamp('not a time', 'JST')).toBe('not a time');
  });
});

describe('wall clocks of a query', () => {
  it('are written and read exactly as the time-zone database would, across years', () => {
    for (let t = Date.UTC(1952, 0, 1); t < Date.UTC(2101, 0, 1); t += 3_919_993_000) {
      for (const zone of ZONES) {
        const written = formatWallClock(new Date(t), zone);
        expect(written).toBe(formatInTimeZone(new Date(t), IANA_ZONE[zone], 'yyyy-MM-dd HH:mm:ss'));
        expect(parseWallClock(written, zone)?.getTime()).toBe(
          fromZonedTime(written.replace(' ', 'T'), IANA_ZONE[zone]).getTime(),
        );
      }
    }
  });

  it('before the years of the fixed offset, are written as the time-zone database writes them', () => {
    for (let t = Date.UTC(1890, 0, 1); t < Date.UTC(1953, 0, 1); t += 1_919_993_117) {
      for (const zone of ZONES)
        expect(formatWallClock(new Date(t), zone)).toBe(
          formatInTimeZone(new Date(t), IANA_ZONE[zone], 'yyyy-MM-dd HH:mm:ss'),
        );
    }
    expect(formatWallClock(new Date(Date.UTC(999, 11, 31, 23, 0, 0)), 'UTC')).toBe('0999-12-31 23:00:00');
  });

  it('keep the time-zone database where Tokyo kept daylight saving time (1948–1951)', () => {
    // 1950-07-01 12:00 in Tokyo was UTC+10 that summer.
    expect(parseWallClock('1950-07-01 12:00:00', 'JST')?.toISOString()).toBe('1950-07-01T02:00:00.000Z');
    expect(formatWallClock(new Date('1950-07-01T02:00:00Z'), 'JST')).toBe('1950-07-01 12:00:00');
    // Tokyo's local mean time (UTC+9:18:59) before 1888, and years a Date reads as 19xx when given as two digits.
    expect(parseWallClock('1887-06-01 05:00:00', 'JST')?.toISOString()).toBe('1887-05-31T19:41:01.000Z');
    for (const wall of ['0001-01-01 00:00:00', '0050-03-01 12:00:00', '1948-05-02 01:30:00'])
      expect(formatWallClock(parseWallClock(wall, 'JST')!, 'JST')).toBe(wall);
  });

  it('refuse what is not a calendar time, and an invalid instant as before', () => {
    expect(parseWallClock('2026-02-30 00:00:00', 'UTC')).toBeNull();
    expect(parseWallClock('2026-11-21T08:59', 'JST')?.toISOString()).toBe('2026-11-20T23:59:00.000Z');
    expect(() => formatWallClock(new Date(Number.NaN), 'UTC')).toThrow(RangeError);
  });
});

describe('reading a record timestamp', () => {
  it('reads the sample and every documented variant as the same instant', () => {
    const instant = Date.UTC(2024, 0, 5, 3, 34, 56, 789);
    for (const text of [
      '2024-01-05T12:34:56.789+0900',
      '2024-01-05T12:34:56.789+09:00',
      '2024-01-05T03:34:56.789Z',
      '2024-01-05 03:34:56.789',
      ' 2024-01-05T03:34:56.789+0000 ',
      '2024-01-05T03:34:56.789 Z',
    ]) {
      expect(parseUpstreamTimestamp(text)?.getTime(), text).toBe(instant);
    }
    expect(parseUpstreamTimestamp('2024-01-05T03:34:56Z')?.getTime()).toBe(Date.UTC(2024, 0, 5, 3, 34, 56));
    expect(parseUpstreamTimestamp('2024-01-05T03:34:56.5Z')?.getTime()).toBe(Date.UTC(2024, 0, 5, 3, 34, 56, 500));
  });

  it('rounds more than three digits of a second to the millisecond, into the next second when it must', () => {
    expect(parseUpstreamTimestamp('2024-01-05T03:34:56.123456Z')?.getTime()).toBe(Date.UTC(2024, 0, 5, 3, 34, 56, 123));
    expect(parseUpstreamTimestamp('2024-01-05T03:34:56.99960Z')?.getTime()).toBe(Date.UTC(2024, 0, 5, 3, 34, 57, 0));
  });

  it('agrees with the ISO reading of the same text on the edges of the calendar', () => {
    // Worked out from the numbers: what `new Date` accepts (a day past the month's end, 24:00:00,
    // years before 100) it accepts alike, what it refuses it refuses.
    const edges = [
      '2026-02-30T00:00:00.000Z',
      '2026-04-31T00:00:00.000Z',
      '2026-01-01T24:00:00.000Z',
      '2026-01-01T24:00:01.000Z',
      '2026-13-01T00:00:00.000Z',
      '2026-01-32T00:00:00.000Z',
      '2026-01-01T23:60:00.000Z',
      '2026-01-01T23:00:60.000Z',
      '2026-01-01T23:00:00.000+25:00',
      '2026-01-01T23:00:00.000+09:60',
      '0050-01-01T00:00:00.000Z',
      '2024-01-05T12:34:56.789-03:30',
    ];
    for (const text of edges)
      expect(parseUpstreamTimestamp(text)?.getTime() ?? Number.NaN, text).toBe(new Date(text).getTime());
  });

  it('is null for "" and for what is not a timestamp', () => {
    for (const text of [
      '',
      'yesterday',
      '2024-01-05',
      '2024-01-05T03:34Z',
      '2024-1-05T03:34:56Z',
      '2024-01-05T03:34:56+9',
    ])
      expect(parseUpstreamTimestamp(text), text).toBeNull();
  });
});
