import { describe, expect, it } from 'vitest';
import type { CallClass } from './classes';
import {
  accountWindows,
  backgroundRate,
  holdbackOf,
  planCalls,
  newAddressSignInLimit,
  sharedWindows,
  signInTokenLimit,
  verdict,
  type CallRecord,
  type GovernorState,
  type PolicyLimits,
} from './policy';
import { DAY_MS as DAY, HOUR_MS as HOUR, MINUTE_MS as MINUTE } from '../time/units';

const NOW = Date.UTC(2026, 10, 20, 12, 0, 0);
const LIMITS: PolicyLimits = {
  account: { perMinute: 3, perHour: 10, perDay: 100 },
  deployment: null,
  backgroundReserve: 3,
  syncShare: 0.6,
  holdbackShare: 0.2,
  tokensPerMinute: 10,
};
const SHARED: PolicyLimits = { ...LIMITS, deployment: { perMinute: 3, perHour: 10, perDay: 100 } };

/** `n` calls of an account, `spacing` apart, the last one `agoMs` before now. */
function calls(
  account: string,
  n: number,
  cls: CallClass = 'interactive',
  agoMs = 5 * MINUTE,
  spacing = 2 * MINUTE,
): CallRecord[] {
  return Array.from({ length: n }, (_, i) => ({ account, cls, at: NOW - agoMs - (n - 1 - i) * spacing }));
}
const state = (...groups: CallRecord[][]): GovernorState => ({
  calls: groups.flat().sort((a, b) => a.at - b.at),
  blocks: new Map(),
});
const goesNow = (v: { at: number }) => v.at <= NOW;

describe('an account’s own windows', () => {
  it('lets a person make the 10th call of an hour and stops the 11th until the first leaves the hour', () => {
    expect(goesNow(verdict(state(calls('a', 9)), LIMITS, 'a', 'interactive', NOW))).toBe(true);
    const v = verdict(state(calls('a', 10)), LIMITS, 'a', 'interactive', NOW);
    expect(v).toMatchObject({ limitedBy: 'hour', scope: 'account', limit: 10 });
    expect(v.at).toBe(NOW - 5 * MINUTE - 9 * 2 * MINUTE + HOUR);
  });

  it('keeps 3 calls of each hour from background work', () => {
    const s = state(calls('a', 7));
    expect(goesNow(verdict(s, LIMITS, 'a', 'interactive', NOW))).toBe(true);
    expect(verdict(s, LIMITS, 'a', 'export', NOW)).toMatchObject({ limitedBy: 'hour' });
  });

  it('lets the copy take at most 60 % of a window, and exports the rest of what background may use', () => {
    const s = state(calls('a', 6, 'sync'));
    expect(verdict(s, LIMITS, 'a', 'sync', NOW)).toMatchObject({ limitedBy: 'hour' });
    expect(goesNow(verdict(s, LIMITS, 'a', 'export', NOW))).toBe(true);
    // a minute of 3 → 1 copy call
    expect(verdict(state(calls('a', 1, 'sync', 10_000)), LIMITS, 'a', 'sync', NOW)).toMatchObject({
      limitedBy: 'minute',
    });
  });

  it('never counts another account’s calls against an account when the upstream counts per account', () => {
    expect(goesNow(verdict(state(calls('a', 10)), LIMITS, 'b', 'interactive', NOW))).toBe(true);
  });

  it('honours the upstream’s hold on that account only', () => {
    const s: GovernorState = { calls: [], blocks: new Map([['a', NOW + 30_000]]) };
    expect(verdict(s, LIMITS, 'a', 'interactive', NOW)).toMatchObject({ at: NOW + 30_000, limitedBy: 'upstream' });
    expect(goesNow(verdict(s, LIMITS, 'b', 'interactive', NOW))).toBe(true);
  });
});

describe('the deployment’s shared windows', () => {
  it('keep part of each window for accounts that have not used it', () => {
    expect(holdbackOf(10, 0.2)).toBe(2);
    expect(holdbackOf(3, 0.2)).toBe(1);
    expect(holdbackOf(1, 0.2)).toBe(0);
    // a used 8 of the shared 10 this hour: a may not take the last 2, b (nothing spent) may.
    const s = state(calls('a', 8, 'interactive', 5 * MINUTE, 3 * MINUTE));
    expect(verdict(s, SHARED, 'a', 'interactive', NOW)).toMatchObject({
      limitedBy: 'hour',
      scope: 'deployment',
      sharedBy: 1,
    });
    expect(goesNow(verdict(s, SHARED, 'b', 'interactive', NOW))).toBe(true);
  });

  it('refuse a newcomer only when the whole window is used, and say how many accounts used it', () => {
    const s = state(
      calls('a', 8, 'interactive', 5 * MINUTE, 3 * MINUTE),
      calls('b', 1, 'interactive', 3 * MINUTE),
      calls('c', 1, 'interactive', 4 * MINUTE),
    );
    expect(verdict(s, SHARED, 'd', 'interactive', NOW)).toMatchObject({
      limitedBy: 'hour',
      scope: 'deployment',
      sharedBy: 3,
    });
  });

  it('count an account as new again once its calls have left the window', () => {
    const s = state(calls('a', 8, 'interactive', 5 * MINUTE, 3 * MINUTE));
    const v = verdict(s, SHARED, 'a', 'interactive', NOW);
    // The hour frees below 8 used when a's first call leaves it; a is new again only after its last.
    expect(v.at).toBe(NOW - 5 * MINUTE - 7 * 3 * MINUTE + HOUR);
  });
});

describe('token requests', () => {
  it('have a deployment-wide cap a minute, of which sign-ins leave a fifth to renewals', () => {
    expect(signInTokenLimit(10)).toBe(8);
    const signIns = Array.from({ length: 8 }, (_, i): CallRecord => ({
      account: '(sign-in)',
      cls: 'signin',
      at: NOW - 50_000 + i * 1000,
    }));
    const s = state(signIns);
    expect(verdict(s, LIMITS, '(sign-in)', 'signin', NOW)).toMatchObject({
      limitedBy: 'tokens',
      at: NOW - 50_000 + MINUTE,
    });
    expect(goesNow(verdict(s, LIMITS, 'a', 'renewal', NOW))).toBe(true);
    // Token requests are not query calls: a person may still search.
    expect(goesNow(verdict(s, LIMITS, 'a', 'interactive', NOW))).toBe(true);
  });

  it('leave half of the sign-ins to owners at their usual address, whatever is sent from elsewhere', () => {
    expect(newAddressSignInLimit(10)).toBe(4);
    expect(newAddressSignInLimit(1)).toBe(1);
    const flood = Array.from({ length: 4 }, (_, i): CallRecord => ({
      account: '(sign-in)',
      cls: 'signin-new',
      at: NOW - 50_000 + i * 1000,
    }));
    const s = state(flood);
    // Another sign-in from a new address waits for the first of those to leave the minute…
    expect(verdict(s, LIMITS, '(sign-in)', 'signin-new', NOW)).toMatchObject({
      limitedBy: 'tokens',
      at: NOW - 50_000 + MINUTE,
    });
    // …while an owner's goes at once, and the sign-ins' cap as a whole still holds.
    expect(goesNow(verdict(s, LIMITS, '(sign-in)', 'signin', NOW))).toBe(true);
    const full = state([
      ...flood,
      ...Array.from({ length: 4 }, (_, i): CallRecord => ({
        account: '(sign-in)',
        cls: 'signin',
        at: NOW - 40_000 + i * 1000,
      })),
    ]);
    expect(verdict(full, LIMITS, '(sign-in)', 'signin', NOW)).toMatchObject({
      limitedBy: 'tokens',
      at: NOW - 50_000 + MINUTE,
    });
  });
});

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

  it('gives the background rate of each class', () => {
    expect(backgroundRate(LIMITS, 'export')).toEqual({ perMinute: 2, perHour: 7, perDay: 97 });
    expect(backgroundRate(LIMITS, 'sync')).toEqual({ perMinute: 1, perHour: 6, perDay: 60 });
  });

  it('looks a day back at most', () => {
    expect(
      goesNow(verdict(state(calls('a', 100, 'interactive', DAY + 1000, 1)), LIMITS, 'a', 'interactive', NOW)),
    ).toBe(true);
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

describe('the arrival margin', () => {
  it('keeps a call in its windows a second longer, as the upstream, counting arrivals, may', () => {
    const withMargin: PolicyLimits = { ...LIMITS, arrivalMarginMs: 1000 };
    const s = state(calls('a', 3, 'interactive', 0, 1000));
    const first = NOW - 2000;
    expect(verdict(s, LIMITS, 'a', 'interactive', NOW).at).toBe(first + MINUTE);
    expect(verdict(s, withMargin, 'a', 'interactive', NOW).at).toBe(first + MINUTE + 1000);
    expect(verdict(s, withMargin, 'a', 'interactive', first + MINUTE + 500).at).toBe(first + MINUTE + 1000);
    // The account's meter says when the window frees by the same clock.
    expect(accountWindows(s, withMargin, 'a', first + MINUTE + 500).find((w) => w.name === 'minute')).toMatchObject({
      used: 3,
      freesAt: first + MINUTE + 1000,
    });
  });
});
