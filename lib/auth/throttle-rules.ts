/**
 * The rules of sign-in throttling, pure (the store keeps the streaks, lib/auth/sign-in-throttle.ts
 * applies these to them). A subject — an API key, or a client address — has a streak of failed
 * sign-ins: up to `allowance` of them cost nothing; from then on each further attempt waits, a
 * wait that starts at `firstWaitMs` after the failure that reached the allowance and doubles with
 * each further failure, up to `maxWaitMs`. A streak is forgotten once `windowMs` passed without a
 * failure after its wait ended: "5 failures within 15 minutes" is 5 failures each less than 15
 * minutes after the one before.
 */
import type { FailureStreak } from './sign-in-attempt-store';

export interface ThrottleRule {
  /** Failures that cost nothing. */
  allowance: number;
  firstWaitMs: number;
  maxWaitMs: number;
  /** Quiet time after which a streak is forgotten. */
  windowMs: number;
}

/** The wait after a streak of `failures` (0 below the allowance). */
export function waitAfter(failures: number, rule: ThrottleRule): number {
  if (failures < rule.allowance) return 0;
  return Math.min(rule.maxWaitMs, rule.firstWaitMs * 2 ** (failures - rule.allowance));
}

/** When the subject may try again: the streak's last failure plus its wait. */
export function waitEndsAt(streak: FailureStreak, rule: ThrottleRule): number {
  return streak.lastFailureAt + waitAfter(streak.failures, rule);
}

/** The streak as it stands at `now`: null once it is forgotten. */
export function liveStreak(streak: FailureStreak | null, rule: ThrottleRule, now: number): FailureStreak | null {
  if (!streak || streak.failures <= 0) return null;
  return now >= waitEndsAt(streak, rule) + rule.windowMs ? null : streak;
}

/** When the next attempt may go (`now` when it may go at once). */
export function nextAttemptAt(streak: FailureStreak | null, rule: ThrottleRule, now: number): number {
  const live = liveStreak(streak, rule, now);
  return live ? Math.max(now, waitEndsAt(live, rule)) : now;
}

/** The streak after one more failure at `now`. */
export function withFailure(streak: FailureStreak | null, rule: ThrottleRule, now: number): FailureStreak {
  const live = liveStreak(streak, rule, now);
  return { failures: (live?.failures ?? 0) + 1, lastFailureAt: now };
}

/** The streak without one failure counted ahead of an attempt that taught nothing; null when none is left. */
export function withoutFailure(streak: FailureStreak | null): FailureStreak | null {
  if (!streak || streak.failures <= 1) return null;
  return { failures: streak.failures - 1, lastFailureAt: streak.lastFailureAt };
}
