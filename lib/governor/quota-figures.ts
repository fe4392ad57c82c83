/**
 * What is left of the upstream's windows, for the metrics (sms_upstream_quota_remaining): the
 * deployment's shared windows when they are configured, and the account nearest its limits (the
 * fewest calls left of any account that has called within the day; the full limit when none has).
 * Per account by name would make a time series of every API key; the lowest is what an alert needs.
 */
import type { WindowName } from './api';
import { countsInQueryWindows } from './classes';
import type { GovernorState, PolicyLimits } from './decision';
import { accountWindows, sharedWindows } from './forecast';

export interface QuotaLeft {
  window: WindowName;
  scope: 'deployment' | 'lowest_account';
  remaining: number;
}

export function quotaLeft(state: GovernorState, limits: PolicyLimits, now: number): QuotaLeft[] {
  const out: QuotaLeft[] = sharedWindows(state, limits, now).map((w) => ({
    window: w.name,
    scope: 'deployment',
    remaining: w.remaining,
  }));
  // An account with no call: every window at its limit.
  const lowest = new Map(accountWindows({ ...state, calls: [] }, limits, '', now).map((w) => [w.name, w.limit]));
  const accounts = new Set(state.calls.filter((c) => countsInQueryWindows(c.cls)).map((c) => c.account));
  for (const account of accounts)
    for (const w of accountWindows(state, limits, account, now))
      lowest.set(w.name, Math.min(lowest.get(w.name) ?? w.remaining, w.remaining));
  for (const [window, remaining] of lowest) out.push({ window, scope: 'lowest_account', remaining });
  return out;
}
