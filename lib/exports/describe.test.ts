import { describe, expect, it } from 'vitest';
import type { ExportSchedule } from './api';
import { HOUR_MS as HOUR, MINUTE_MS as MINUTE } from '../time/units';
import { translate } from '../i18n/translate';
import type { Locale } from '../i18n/locales';
import * as words from './describe';

/** The sentences as a reader of `locale` reads them (English unless said). */
const describeSpan = (ms: number, locale: Locale = 'en') => translate(locale, words.describeSpan(ms));
const describeSchedule = (...args: Parameters<typeof words.describeSchedule>) =>
  translate('en', words.describeSchedule(...args));

describe('describeSpan', () => {
  it.each([
    [20_000, 'under a minute'],
    [25 * MINUTE, 'about 25 min'],
    [4 * HOUR + 10 * MINUTE, 'about 4 h 10 min'],
    [4 * HOUR + 58 * MINUTE, 'about 5 h'],
    [3 * 24 * HOUR + 4 * HOUR, 'about 3 d 4 h'],
  ])('%d ms reads %s', (ms, text) => {
    expect(describeSpan(ms)).toBe(text);
  });
});

describe('describeSchedule', () => {
  const CACHED = { pagesCached: 3, local: false };
  const s = (over: Partial<ExportSchedule>): ExportSchedule => ({
    calls: 42,
    callsAhead: 0,
    startsAt: '',
    finishAt: 'x',
    durationMs: 6 * HOUR,
    perMinute: 3,
    perHour: 7,
    perDay: 97,
    reserve: 3,
    fitsNow: false,
    ...over,
  });
  it('says calls, time, rate and the interactive reserve', () => {
    expect(describeSchedule(s({}), 0, CACHED)).toBe(
      '42 calls: about 6 h at 7 calls an hour; 3 calls an hour are kept for interactive use.',
    );
  });
  it('mentions the day limit when it binds and earlier exports', () => {
    expect(describeSchedule(s({ calls: 300, callsAhead: 5, durationMs: 3 * 24 * HOUR }), 0, CACHED)).toBe(
      '300 calls: about 3 d at 7 calls an hour and 97 a day; 3 calls an hour are kept for interactive use. 5 calls of earlier exports go first.',
    );
  });
  it('quotes the minute when it sets the pace', () => {
    expect(
      describeSchedule(
        s({ calls: 75, durationMs: 2 * MINUTE, perMinute: 60, perHour: 9997, perDay: 99997 }),
        0,
        CACHED,
      ),
    ).toBe('75 calls: about 2 min at 60 calls a minute; 3 calls an hour are kept for interactive use.');
  });
  it('says a small export goes right now', () => {
    expect(describeSchedule(s({ calls: 2, fitsNow: true }), 0, CACHED)).toBe(
      '2 calls, free right now: ready in a few seconds.',
    );
  });
  it('says nothing is spent, and where the records come from', () => {
    const free = s({ calls: 0, fitsNow: true });
    expect(describeSchedule(free, 0, CACHED)).toBe('No upstream call: every page is already cached.');
    expect(describeSchedule(free, 0, { pagesCached: 0, local: true })).toBe(
      'No upstream call: read from the local history.',
    );
    expect(describeSchedule(free, 0, { pagesCached: 4, local: true })).toBe(
      'No upstream call: read from the local history and pages already cached.',
    );
    // Nothing to read (a local-only export over days not copied: its warning says so).
    expect(describeSchedule(free, 0, { pagesCached: 0, local: false })).toBe('No upstream call.');
  });
  it('says when sizes are still unknown', () => {
    expect(describeSchedule(s({ calls: 3 }), 3, CACHED)).toMatch(
      /^At least 3 calls: .* The size of 3 windows is not known until their first page is read/,
    );
  });
  it('says when the calls can never go', () => {
    expect(describeSchedule(s({ finishAt: null, durationMs: null }), 0, CACHED)).toContain('cannot go');
  });
});

describe('in Japanese', () => {
  it('says spans and schedules as Japanese consoles do', () => {
    expect(describeSpan(4 * HOUR + 10 * MINUTE, 'ja')).toBe('約4時間10分');
    expect(describeSpan(20_000, 'ja')).toBe('1分未満');
    const schedule: ExportSchedule = {
      calls: 42,
      callsAhead: 0,
      startsAt: '',
      finishAt: 'x',
      durationMs: 6 * HOUR,
      perMinute: 3,
      perHour: 7,
      perDay: 97,
      reserve: 3,
      fitsNow: false,
    };
    expect(translate('ja', words.describeSchedule(schedule, 0, { pagesCached: 0, local: false }))).toBe(
      '42回の呼び出し:1時間あたり7回のペースで約6時間(1時間あたり3回は画面操作用に残します)。',
    );
  });
});
