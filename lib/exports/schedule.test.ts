import { describe, expect, it } from 'vitest';
import { HOUR, MINUTE } from '../governor/windows';
import { describeSchedule, describeSpan } from './describe';
import { backgroundRate, backgroundTracks, backgroundWindows, nextBackgroundCallAt, planCalls, type PlanInput } from './schedule';
import type { ExportSchedule } from '../api/exports';

const NOW = Date.UTC(2026, 10, 20, 9, 0, 0);
const limits = { perMinute: 3, perHour: 10, perDay: 100 };

/** One account's track (and the deployment's, when given), background windows with a reserve of 3. */
function tracks(calls: number[] = [], reserve = 3, deployment?: { calls: number[]; limits: typeof limits }) {
  return backgroundTracks({ accountCalls: calls, limits, reserve, ...(deployment ? { deployment } : {}) });
}

function plan(overrides: Partial<PlanInput> & { calls?: number[]; reserve?: number }) {
  const { calls, reserve, ...rest } = overrides;
  return planCalls({ tracks: tracks(calls, reserve), now: NOW, blockedUntil: null, callsAhead: 0, count: 0, callMs: 1000, ...rest });
}

describe('backgroundWindows', () => {
  it('keeps the minute limit and leaves the reserve of each hour and day to people', () => {
    expect(backgroundWindows(limits, 3).map((w) => [w.name, w.limit])).toEqual([
      ['minute', 3],
      ['hour', 7],
      ['day', 97],
    ]);
  });
});

describe('nextBackgroundCallAt', () => {
  it('is now with an empty ledger', () => {
    expect(nextBackgroundCallAt(tracks(), NOW, null)).toBe(NOW);
  });
  it('waits for the oldest call to leave a full minute', () => {
    const calls = [NOW - 50_000, NOW - 40_000, NOW - 30_000];
    expect(nextBackgroundCallAt(tracks(calls), NOW, null)).toBe(NOW + 10_000);
  });
  it('stops at the background share of the hour, leaving the reserve', () => {
    const calls = Array.from({ length: 7 }, (_, i) => NOW - 50 * MINUTE + i * 5 * MINUTE);
    expect(nextBackgroundCallAt(tracks(calls), NOW, null)).toBe(calls[0]! + HOUR);
  });
  it('counts the whole deployment’s calls too (the upstream counts per IP)', () => {
    const others = Array.from({ length: 7 }, (_, i) => NOW - 30 * MINUTE + i * MINUTE);
    expect(nextBackgroundCallAt(tracks([], 3, { calls: others, limits }), NOW, null)).toBe(others[0]! + HOUR);
  });
  it('honours a hold the upstream asked for', () => {
    expect(nextBackgroundCallAt(tracks(), NOW, NOW + 90_000)).toBe(NOW + 90_000);
  });
  it('is never when the reserve takes every call', () => {
    expect(nextBackgroundCallAt(tracks([], 10), NOW, null)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('backgroundRate', () => {
  it('is the tightest of the account and the deployment', () => {
    expect(backgroundRate(tracks())).toEqual({ perMinute: 3, perHour: 7, perDay: 97 });
    expect(backgroundRate(tracks([], 3, { calls: [], limits: { perMinute: 3, perHour: 5, perDay: 200 } }))).toEqual({ perMinute: 3, perHour: 2, perDay: 97 });
  });
});

describe('planCalls', () => {
  it('fits now when every call can go without waiting', () => {
    const p = plan({ count: 3 });
    expect(p.fitsNow).toBe(true);
    expect(p.finishAt).toBe(NOW + 3000);
  });

  it('paces a larger export by the minute, then the hour', () => {
    const p = plan({ count: 7 });
    expect(p.fitsNow).toBe(false);
    // 3 now, 3 a minute later, the 7th two minutes after the first.
    expect(p.finishAt).toBe(NOW + 2 * MINUTE + 1000);
    const p8 = plan({ count: 8 });
    // The 8th needs the hour's first call to leave it (7 background calls an hour).
    expect(p8.finishAt).toBe(NOW + HOUR + 1000);
  });

  it('42 calls take about 6 hours at 7 calls an hour', () => {
    const p = plan({ count: 42 });
    expect((p.finishAt! - NOW) / HOUR).toBeGreaterThan(5);
    expect((p.finishAt! - NOW) / HOUR).toBeLessThan(6);
  });

  it('counts the calls of earlier exports first', () => {
    const alone = plan({ count: 3 });
    const behind = plan({ count: 3, callsAhead: 7 });
    expect(behind.fitsNow).toBe(false);
    expect(behind.startsAt).toBeGreaterThan(alone.startsAt);
    expect(behind.finishAt!).toBeGreaterThan(NOW + HOUR);
  });

  it('takes the ledger into account', () => {
    const calls = Array.from({ length: 97 }, (_, i) => NOW - 23 * HOUR + i * 1000);
    const p = plan({ calls, count: 1 });
    expect(p.fitsNow).toBe(false);
    expect(p.startsAt).toBe(calls[0]! + 24 * HOUR);
  });

  it('says never when the reserve takes every call', () => {
    expect(plan({ count: 1, reserve: 10 }).finishAt).toBeNull();
  });

  it('costs nothing for no calls', () => {
    expect(plan({ count: 0 })).toMatchObject({ fitsNow: true, finishAt: NOW });
  });
});

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
