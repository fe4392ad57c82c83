import { describe, expect, it } from 'vitest';
import type { ExportSchedule } from '../api/exports';
import { HOUR, MINUTE } from '../governor/windows';
import { describeSchedule, describeSpan } from './describe';

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
    expect(describeSchedule(s({}))).toBe('42 calls: about 6 h at 7 calls an hour; 3 calls an hour are kept for interactive use.');
  });
  it('mentions the day limit when it binds and earlier exports', () => {
    expect(describeSchedule(s({ calls: 300, callsAhead: 5, durationMs: 3 * 24 * HOUR }))).toBe(
      '300 calls: about 3 d at 7 calls an hour and 97 a day; 3 calls an hour are kept for interactive use. 5 calls of earlier exports go first.',
    );
  });
  it('quotes the minute when it sets the pace', () => {
    expect(describeSchedule(s({ calls: 75, durationMs: 2 * MINUTE, perMinute: 60, perHour: 9997, perDay: 99997 }))).toBe(
      '75 calls: about 2 min at 60 calls a minute; 3 calls an hour are kept for interactive use.',
    );
  });
  it('says a small export goes right now', () => {
    expect(describeSchedule(s({ calls: 2, fitsNow: true }))).toBe('2 calls, free right now: ready in a few seconds.');
  });
  it('says nothing is spent when every page is cached', () => {
    expect(describeSchedule(s({ calls: 0, fitsNow: true }))).toBe('No upstream call: every page is already cached.');
  });
  it('says when sizes are still unknown', () => {
    expect(describeSchedule(s({ calls: 3 }), 3)).toMatch(/^At least 3 calls: .* The size of 3 windows is not known until their first page is read/);
  });
  it('says when the calls can never go', () => {
    expect(describeSchedule(s({ finishAt: null, durationMs: null }))).toContain('cannot go');
  });
});
