/**
 * What the decision (decision.ts) will say next, for people to read: the windows an account has
 * left (the quota meter), the deployment's shared ones, and when a batch of background calls would
 * go (an export's estimate). Pure, on the same state the decision reads.
 */
import type { CallClass } from './classes';
import { countsInQueryWindows } from './classes';
import { accountsIn, timesOf, verdict, windowsOf, type GovernorState, type PolicyLimits } from './decision';
import type { WindowName } from './api';
import { usage } from './windows';

export interface WindowState {
  name: WindowName;
  limit: number;
  used: number;
  remaining: number;
  /** When the oldest call in the window leaves it (ms), or null when it is empty. */
  freesAt: number | null;
}

/** The account's own windows, as people count them (interactive limits). */
export function accountWindows(
  state: GovernorState,
  limits: PolicyLimits,
  account: string,
  now: number,
): WindowState[] {
  const own = timesOf(state.calls, (c) => c.account === account && countsInQueryWindows(c.cls));
  return windowsOf(limits.account, limits).map((w) => {
    const u = usage(own, now, w);
    return {
      name: w.name,
      limit: w.limit,
      used: u.used,
      remaining: Math.max(0, w.limit - u.used),
      freesAt: u.oldestLeavesAt,
    };
  });
}

/** The deployment's windows, shared by every account, with how many accounts used each. */
export function sharedWindows(
  state: GovernorState,
  limits: PolicyLimits,
  now: number,
): (WindowState & { accounts: number })[] {
  if (!limits.deployment) return [];
  const all = timesOf(state.calls, (c) => countsInQueryWindows(c.cls));
  return windowsOf(limits.deployment, limits).map((w) => {
    const u = usage(all, now, w);
    return {
      name: w.name,
      limit: w.limit,
      used: u.used,
      remaining: Math.max(0, w.limit - u.used),
      freesAt: u.oldestLeavesAt,
      accounts: accountsIn(state.calls, now, w.ms),
    };
  });
}

export interface CallPlan {
  startsAt: number;
  /** null: the calls can never go at these limits. */
  finishAt: number | null;
  /** Every call can go without waiting for a window: done within seconds. */
  fitsNow: boolean;
}

/**
 * When `count` calls of `cls` would go if nobody else called, after `ahead` calls of the same kind
 * queued before them: each waits for the windows as the ones before it fill them. "At best": other
 * people's calls take from the same windows.
 */
export function planCalls(
  state: GovernorState,
  limits: PolicyLimits,
  account: string,
  cls: CallClass,
  count: number,
  ahead: number,
  callMs: number,
  now: number,
): CallPlan {
  const calls = [...state.calls];
  const simulated: GovernorState = { calls, blocks: state.blocks };
  let t = now;
  let waited = false;
  let startsAt = now;
  for (let i = 0; i < ahead + count; i++) {
    const at = Math.max(t, verdict(simulated, limits, account, cls, t).at);
    if (!Number.isFinite(at)) return { startsAt, finishAt: null, fitsNow: false };
    if (at > t) waited = true;
    if (i === ahead) startsAt = at;
    calls.push({ account, at, cls });
    t = at + callMs;
  }
  if (count === 0) startsAt = t;
  return { startsAt, finishAt: t, fitsNow: ahead === 0 && !waited };
}
