import { describe, expect, it } from 'vitest';
import { fromInputValue, latestEndFor, rangeSpan, splitRange, toInputValue } from './range';
import { checkDraft, emptyFilters, rezoneRange, type WallRange } from '../query/draft';
import type { Zone } from '../time/zones';
import { translate } from '../i18n/translate';

/** The range's problems as the server would state them, in English. */
function rangeProblems(range: WallRange, tz: Zone): Record<string, string> {
  const result = checkDraft(
    { range, filters: emptyFilters() },
    { tz, sort: 'date_received', sortOrder: 'desc', pageSize: 25 },
  );
  return result.ok ? {} : Object.fromEntries(Object.entries(result.errors).map(([p, w]) => [p, translate('en', w)]));
}

describe('datetime-local values', () => {
  it('round-trips the seed format', () => {
    expect(toInputValue('2026-11-20 09:15:00')).toBe('2026-11-20T09:15:00');
    expect(fromInputValue('2026-11-20T09:15:07')).toBe('2026-11-20 09:15:07');
  });
  it('adds the seconds a browser leaves out', () => {
    expect(fromInputValue('2026-11-20T09:15')).toBe('2026-11-20 09:15:00');
    expect(fromInputValue('')).toBe('');
  });
});

describe('moving a range between zones', () => {
  it('keeps the instants and rewrites the wall clocks', () => {
    expect(rezoneRange({ dateFrom: '2026-11-19 15:00:00', dateTo: '2026-11-20 15:00:00' }, 'UTC', 'JST')).toEqual({
      dateFrom: '2026-11-20 00:00:00',
      dateTo: '2026-11-21 00:00:00',
    });
    expect(rezoneRange({ dateFrom: '2026-11-20 00:00:00', dateTo: '2026-11-21 00:00:00' }, 'JST', 'UTC')).toEqual({
      dateFrom: '2026-11-19 15:00:00',
      dateTo: '2026-11-20 15:00:00',
    });
  });
  it('leaves half-typed values alone', () => {
    expect(rezoneRange({ dateFrom: '2026-11-', dateTo: '' }, 'UTC', 'JST')).toEqual({
      dateFrom: '2026-11-',
      dateTo: '',
    });
  });
});

describe('range validation (the server’s own rules)', () => {
  it('accepts exactly 31 days and refuses one second more', () => {
    expect(rangeProblems({ dateFrom: '2026-10-01 00:00:00', dateTo: '2026-11-01 00:00:00' }, 'UTC')).toEqual({});
    const problems = rangeProblems({ dateFrom: '2026-10-01 00:00:00', dateTo: '2026-11-01 00:00:01' }, 'UTC');
    expect(problems['date-to']).toMatch(/at most 31 days/);
  });
  it('refuses an end before the start, a missing end and a date that does not exist', () => {
    expect(rangeProblems({ dateFrom: '2026-11-02 00:00:00', dateTo: '2026-11-01 00:00:00' }, 'JST')['date-to']).toMatch(
      /later than/,
    );
    expect(rangeProblems({ dateFrom: '2026-11-02 00:00:00', dateTo: '' }, 'JST')['date-to']).toMatch(/required/);
    expect(
      rangeProblems({ dateFrom: '2026-02-30 00:00:00', dateTo: '2026-03-02 00:00:00' }, 'UTC')['date-from'],
    ).toMatch(/real date/);
  });
  it('says how long a range is', () => {
    expect(rangeSpan({ dateFrom: '2026-10-01 00:00:00', dateTo: '2026-11-04 02:00:00' }, 'UTC')).toEqual({
      ms: (34 * 24 + 2) * 3600_000,
      text: '34 d 2 h',
      over: '3 d 2 h',
      tooLong: true,
    });
    expect(rangeSpan({ dateFrom: '2026-10-01 00:00:00', dateTo: '2026-11-04 02:00:00' }, 'UTC', 'ja')).toMatchObject({
      text: '34日2時間',
      over: '3日2時間',
    });
    // Just over: to the second, not "31 d" beside "at most 31 days".
    expect(rangeSpan({ dateFrom: '2026-10-01 00:00:00', dateTo: '2026-11-01 00:00:01' }, 'UTC')).toMatchObject({
      text: '31 d 1 s',
      over: '1 s',
    });
    expect(rangeSpan({ dateFrom: '2026-10-01 00:00:00', dateTo: '2026-11-01 00:00:00' }, 'UTC')).toMatchObject({
      text: '31 d',
      tooLong: false,
    });
    expect(rangeSpan({ dateFrom: 'soon', dateTo: '2026-11-04 02:00:00' }, 'UTC')).toBeNull();
  });
  it('offers at most 31 days after the start', () => {
    expect(latestEndFor('2026-11-20 09:00:00', 'JST')).toBe('2026-12-21 09:00:00');
    expect(latestEndFor('nope', 'JST')).toBeNull();
  });
});

describe('splitting a range', () => {
  it('halves it on a whole second', () => {
    expect(splitRange({ dateFrom: '2026-11-01 00:00:00', dateTo: '2026-11-02 00:00:01' }, 'UTC')).toEqual([
      { dateFrom: '2026-11-01 00:00:00', dateTo: '2026-11-01 12:00:00' },
      { dateFrom: '2026-11-01 12:00:00', dateTo: '2026-11-02 00:00:01' },
    ]);
  });
});
