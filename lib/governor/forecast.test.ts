import { describe, expect, it } from 'vitest';
import { type CallRecord } from './decision';
import { accountWindows, planCalls, sharedWindows } from './forecast';
import { calls, LIMITS, NOW, SHARED, state } from './test-ledger';
import { HOUR_MS as HOUR, MINUTE_MS as MINUTE } from '../time/units';

describe('what an account sees', () => {
  it('its own windows, and the shared ones with how many accounts use them', () => {
    const s = state(calls('a', 2), calls('b', 1));
    expect(accountWindows(s, SHARED, 'a', NOW).find((w) => w.name === 'hour')).toMatchObject({
      used: 2,
      remaining: 8,
      limit: 10,
    });
    expect(sharedWindows(s, SHARED, NOW).find((w) => w.name === 'hour')).toMatchObject({
      used: 3,
      remaining: 7,
      accounts: 2,
    });
    expect(sharedWindows(s, LIMITS, NOW)).toEqual([]);
  });
});

describe('planning calls ahead', () => {
  it('spreads an export over the windows, leaving the reserve', () => {
    const plan = planCalls(state(), LIMITS, 'a', 'export', 14, 0, 1000, NOW);
    // 7 background calls an hour (10 − 3): the 14th goes in the second hour, 3 a minute before that.
    expect(plan.fitsNow).toBe(false);
    expect(plan.finishAt).toBeGreaterThan(NOW + HOUR);
    expect(plan.finishAt).toBeLessThan(NOW + 2 * HOUR);
    expect(planCalls(state(), LIMITS, 'a', 'export', 2, 0, 1000, NOW).fitsNow).toBe(true);
  });

  it('says never when the reserve takes the whole window', () => {
    expect(
      planCalls(state(), { ...LIMITS, backgroundReserve: 10 }, 'a', 'export', 1, 0, 1000, NOW).finishAt,
    ).toBeNull();
  });
});

describe('planning an export', () => {
  const plan = (count: number, opts: { ahead?: number; calls?: CallRecord[]; reserve?: number } = {}) =>
    planCalls(
      state(opts.calls ?? []),
      { ...LIMITS, backgroundReserve: opts.reserve ?? 3 },
      'a',
      'export',
      count,
      opts.ahead ?? 0,
      1000,
      NOW,
    );

  it('fits now when every call can go without waiting', () => {
    expect(plan(2)).toMatchObject({ fitsNow: true, finishAt: NOW + 2000 });
    // The minute's last call is kept for people: the third waits for the first to leave it.
    expect(plan(3)).toMatchObject({ fitsNow: false, finishAt: NOW + MINUTE + 1000 });
    expect(plan(3, { reserve: 0 })).toMatchObject({ fitsNow: true, finishAt: NOW + 3000 });
  });

  it('paces a larger export by the minute, then the hour', () => {
    // 2 now, 2 a minute later, 2 more a minute after, the 7th three minutes after the first.
    expect(plan(7)).toMatchObject({ fitsNow: false, finishAt: NOW + 3 * MINUTE + 1000 });
    // The 8th needs the hour's first call to leave it (7 background calls an hour).
    expect(plan(8).finishAt).toBe(NOW + HOUR + 1000);
  });

  it('takes 5 to 6 hours for 42 calls at 7 calls an hour', () => {
    const hours = (plan(42).finishAt! - NOW) / HOUR;
    expect(hours).toBeGreaterThan(5);
    expect(hours).toBeLessThan(6);
  });

  it('counts the calls of earlier exports first', () => {
    const behind = plan(3, { ahead: 7 });
    expect(behind.fitsNow).toBe(false);
    expect(behind.startsAt).toBeGreaterThan(plan(3).startsAt);
    expect(behind.finishAt!).toBeGreaterThan(NOW + HOUR);
  });

  it('takes the ledger into account', () => {
    const calls = Array.from({ length: 97 }, (_, i): CallRecord => ({
      account: 'a',
      cls: 'interactive',
      at: NOW - 23 * HOUR + i * 1000,
    }));
    const p = plan(1, { calls });
    expect(p.fitsNow).toBe(false);
    expect(p.startsAt).toBe(calls[0]!.at + 24 * HOUR);
  });

  it('costs nothing for no calls', () => {
    expect(plan(0)).toMatchObject({ fitsNow: true, finishAt: NOW });
  });
});
