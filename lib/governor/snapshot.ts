/**
 * What an account has left, for the quota meter and the `_meta` of every answer: its windows, the
 * deployment's shared ones, what it has queued and in flight, and when its next call can go (with
 * whose budget holds it, in words). Pure, from the state the decision reads.
 */
import type { QuotaSnapshot, SharedQuotaWindow } from './api';
import { verdict, type GovernorState, type PolicyLimits } from './decision';
import { accountWindows, sharedWindows } from './forecast';
import { describeLimit } from './quota-errors';

export interface AccountActivity {
  /** The account's requests waiting in this instance. */
  queued: { interactive: number; background: number };
  /** Whether a call of the account is in flight from this instance. */
  inFlight: boolean;
}

export function quotaSnapshot(
  state: GovernorState,
  limits: PolicyLimits,
  account: string,
  activity: AccountActivity,
  now: number,
): QuotaSnapshot {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  const next = verdict(state, limits, account, 'interactive', now);
  const own = accountWindows(state, limits, account, now);
  const shared: SharedQuotaWindow[] = sharedWindows(state, limits, now).map((w) => ({ ...w, freesAt: iso(w.freesAt) }));
  const blocked = state.blocks.get(account) ?? 0;
  const inFlight = activity.inFlight ? 1 : 0;
  const nextAt = Math.max(next.at, now);
  return {
    windows: own.map((w) => ({ ...w, freesAt: iso(w.freesAt) })),
    shared: shared.length > 0 ? shared : null,
    inFlight,
    queued: activity.queued,
    nextCallAt: Number.isFinite(nextAt) ? new Date(nextAt).toISOString() : null,
    blockedUntil: blocked > now ? new Date(blocked).toISOString() : null,
    reserve: limits.backgroundReserve,
    limitedBy: next.at > now ? next.limitedBy : inFlight > 0 ? 'in-flight' : null,
    limitScope: next.at > now ? next.scope : inFlight > 0 ? 'account' : null,
    ...(next.at > now
      ? {
          limitMessage: describeLimit(next.limitedBy ?? 'in-flight', next.at - now, next.scope, {
            ...next,
            cls: 'interactive',
          }),
        }
      : {}),
  };
}
