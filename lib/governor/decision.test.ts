import { describe, expect, it } from 'vitest';
import {
  backgroundRate,
  holdbackOf,
  newAddressSignInLimit,
  signInTokenLimit,
  verdict,
  type CallRecord,
  type GovernorState,
  type PolicyLimits,
} from './decision';
import { accountWindows } from './forecast';
import { calls, goesNow, LIMITS, NOW, SHARED, state } from './test-ledger';
import { DAY_MS as DAY, HOUR_MS as HOUR, MINUTE_MS as MINUTE } from '../time/units';

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

describe('the background rate and the day\u2019s reach', () => {
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
