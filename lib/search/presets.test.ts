import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { presetRange, RANGE_PRESETS } from './presets';
import { checkDraft, emptyFilters } from '../query/draft';
import { ZONES } from '../time/zones';

// The machine's own zone must never leak in: run under a zone that is neither UTC nor JST.
const savedTz = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'America/Los_Angeles';
});
afterAll(() => {
  process.env.TZ = savedTz;
});

describe('range presets', () => {
  const now = new Date('2026-11-20T14:37:25.400Z'); // 23:37:25 in Tokyo

  it('rolling presets end at the next whole minute, so a second click within the minute is the same search', () => {
    expect(presetRange('last-hour', now, 'UTC')).toEqual({
      dateFrom: '2026-11-20 13:38:00',
      dateTo: '2026-11-20 14:38:00',
    });
    expect(presetRange('last-hour', new Date('2026-11-20T14:37:59Z'), 'UTC')).toEqual(
      presetRange('last-hour', now, 'UTC'),
    );
  });

  it('last 24 hours in JST is the same instants as in UTC, written in Tokyo time', () => {
    expect(presetRange('last-24-hours', now, 'UTC')).toEqual({
      dateFrom: '2026-11-19 14:38:00',
      dateTo: '2026-11-20 14:38:00',
    });
    expect(presetRange('last-24-hours', now, 'JST')).toEqual({
      dateFrom: '2026-11-19 23:38:00',
      dateTo: '2026-11-20 23:38:00',
    });
  });

  it('today starts at midnight in the chosen zone', () => {
    expect(presetRange('today', now, 'UTC')).toEqual({
      dateFrom: '2026-11-20 00:00:00',
      dateTo: '2026-11-20 14:38:00',
    });
    expect(presetRange('today', now, 'JST')).toEqual({
      dateFrom: '2026-11-20 00:00:00',
      dateTo: '2026-11-20 23:38:00',
    });
    // 01:10 on the 21st in Tokyo while it is still the 20th in UTC.
    const early = new Date('2026-11-20T16:10:00Z');
    expect(presetRange('today', early, 'JST').dateFrom).toBe('2026-11-21 00:00:00');
    expect(presetRange('today', early, 'UTC').dateFrom).toBe('2026-11-20 00:00:00');
  });

  it('yesterday is the whole previous calendar day of the zone, its last second included', () => {
    const early = new Date('2026-11-20T16:10:00Z');
    expect(presetRange('yesterday', early, 'JST')).toEqual({
      dateFrom: '2026-11-20 00:00:00',
      dateTo: '2026-11-21 00:00:00',
    });
    expect(presetRange('yesterday', early, 'UTC')).toEqual({
      dateFrom: '2026-11-19 00:00:00',
      dateTo: '2026-11-20 00:00:00',
    });
    // Across a month boundary.
    expect(presetRange('yesterday', new Date('2026-12-01T03:00:00Z'), 'UTC').dateFrom).toBe('2026-11-30 00:00:00');
  });

  it('this month starts on the first in the zone', () => {
    const firstInTokyo = new Date('2026-11-30T20:00:00Z'); // 05:00 on 1 December in Tokyo
    expect(presetRange('this-month', firstInTokyo, 'JST').dateFrom).toBe('2026-12-01 00:00:00');
    expect(presetRange('this-month', firstInTokyo, 'UTC').dateFrom).toBe('2026-11-01 00:00:00');
  });

  it('last 7 days and last 31 days are rolling', () => {
    expect(presetRange('last-7-days', now, 'UTC')).toEqual({
      dateFrom: '2026-11-13 14:38:00',
      dateTo: '2026-11-20 14:38:00',
    });
    expect(presetRange('last-31-days', now, 'UTC')).toEqual({
      dateFrom: '2026-10-20 14:38:00',
      dateTo: '2026-11-20 14:38:00',
    });
  });

  it('every preset passes the server’s validation in both zones, on any day of the month', () => {
    for (const day of [
      '2026-01-31T23:59:30Z',
      '2026-03-01T00:00:00Z',
      '2026-11-20T14:37:25Z',
      '2028-02-29T12:00:00Z',
    ]) {
      // The clock at that day too: the server refuses a range that starts after now.
      vi.useFakeTimers({ now: new Date(day), toFake: ['Date'] });
      for (const zone of ZONES) {
        for (const preset of RANGE_PRESETS) {
          const draft = { range: presetRange(preset.id, new Date(day), zone), filters: emptyFilters() };
          const result = checkDraft(draft, { tz: zone, sort: 'date_received', sortOrder: 'desc', pageSize: 25 });
          expect(result.ok ? {} : result.errors, `${preset.id} ${zone} ${day}`).toEqual({});
        }
      }
      vi.useRealTimers();
    }
  });
});
