import { describe, expect, it } from 'vitest';
import { liveStreak, nextAttemptAt, waitAfter, withFailure, withoutFailure, type ThrottleRule } from './throttle-rules';

const MIN = 60_000;
const RULE: ThrottleRule = { allowance: 5, firstWaitMs: MIN, maxWaitMs: 60 * MIN, windowMs: 15 * MIN };
const T0 = Date.UTC(2026, 10, 20);

/** `n` failures, each `gap` ms after the one before, starting at T0. */
function failures(n: number, gap = 1000) {
  let streak = null;
  for (let i = 0; i < n; i++) streak = withFailure(streak, RULE, T0 + i * gap);
  return streak;
}

describe('sign-in throttle rules', () => {
  it('lets the allowance go free, then waits a minute, doubling up to an hour', () => {
    expect([0, 1, 4].map((n) => waitAfter(n, RULE))).toEqual([0, 0, 0]);
    expect([5, 6, 7, 8, 9, 10, 11, 12, 40, 2000].map((n) => waitAfter(n, RULE) / MIN)).toEqual([
      1, 2, 4, 8, 16, 32, 60, 60, 60, 60,
    ]);
  });

  it('refuses the attempt after the allowance until the wait is over, counted from the last failure', () => {
    expect(nextAttemptAt(failures(4), RULE, T0 + 4000)).toBe(T0 + 4000);
    const five = failures(5);
    expect(nextAttemptAt(five, RULE, T0 + 5000)).toBe(T0 + 4000 + MIN);
    const six = withFailure(five, RULE, T0 + 4000 + MIN);
    expect(six.failures).toBe(6);
    expect(nextAttemptAt(six, RULE, T0 + 4000 + MIN)).toBe(T0 + 4000 + 3 * MIN);
  });

  it('forgets a streak after the quiet window, counted from the end of its wait', () => {
    const four = failures(4);
    expect(liveStreak(four, RULE, T0 + 3000 + 15 * MIN - 1)).toEqual(four);
    expect(liveStreak(four, RULE, T0 + 3000 + 15 * MIN)).toBeNull();
    expect(withFailure(four, RULE, T0 + 3000 + 15 * MIN).failures).toBe(1);
    // A streak that waits an hour is not forgotten during the wait, nor right after it.
    const long = failures(11, 1);
    expect(waitAfter(long!.failures, RULE)).toBe(60 * MIN);
    expect(liveStreak(long, RULE, T0 + 60 * MIN + 14 * MIN)).toEqual(long);
    expect(liveStreak(long, RULE, T0 + 10 + 60 * MIN + 15 * MIN)).toBeNull();
  });

  it('counts failures less than the window apart as one streak, however long it runs', () => {
    expect(failures(5, 14 * MIN)?.failures).toBe(5);
    expect(failures(5, 16 * MIN)?.failures).toBe(1);
  });

  it('takes back a failure counted ahead of an attempt that taught nothing', () => {
    expect(withoutFailure(null)).toBeNull();
    expect(withoutFailure({ failures: 1, lastFailureAt: T0 })).toBeNull();
    expect(withoutFailure({ failures: 3, lastFailureAt: T0 })).toEqual({ failures: 2, lastFailureAt: T0 });
  });
});
