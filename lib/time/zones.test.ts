import { formatInTimeZone } from 'date-fns-tz';
import { describe, expect, it } from 'vitest';
import { formatUpstreamTimestamp, IANA_ZONE, rezoneTimestamp, ZONES } from './zones';

describe('record timestamps', () => {
  it('are written with the fixed offset exactly as the time-zone database would, across years', () => {
    for (let t = Date.UTC(2000, 0, 1); t < Date.UTC(2031, 0, 1); t += 7_919_993_117) {
      for (const zone of ZONES) {
        expect(formatUpstreamTimestamp(new Date(t), zone)).toBe(formatInTimeZone(new Date(t), IANA_ZONE[zone], "yyyy-MM-dd'T'HH:mm:ss.SSSxx"));
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
