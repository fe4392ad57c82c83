/**
 * What pressing Search will cost, in one sentence ("uses 1 of 7 calls left this hour"), from the
 * search's plan (GET /api/plan) and the quota it carries.
 */
import { tightestWindow } from '../governor';
import { formatAge } from '../i18n/format';
import type { Locale } from '../i18n/locales';
import { msg, type Message } from '../i18n/message';
import type { SearchPlan } from './api';

export type PlanVerdict =
  | { kind: 'cached'; words: Message }
  /** Answered by the local history: free, and (for what only it can do) which parts it cannot search. */
  | { kind: 'local'; words: Message }
  | { kind: 'spends'; words: Message }
  /** A call is needed and none is free yet: the words are completed by a live countdown. */
  | { kind: 'waits'; words: Message };

/**
 * What pressing Search will cost, in one sentence (messages/<locale>/search.json `plan`), said in
 * `locale` where it holds a formatted age. `waitSeconds`: how long until the next call can go (the
 * caller's live countdown to quotaWaitUntil), 0 when it can go now.
 */
export function planVerdict(plan: SearchPlan, waitSeconds: number, locale: Locale = 'en'): PlanVerdict {
  if (plan.source === 'history') {
    const gaps = plan.uncovered?.length ?? 0;
    if (gaps === 0) return { kind: 'local', words: msg('search.plan.local') };
    // One gap may be the whole range: said so that it is true either way.
    return { kind: 'local', words: msg('search.plan.localGaps', { gaps }) };
  }
  if (plan.calls === 0) {
    return {
      kind: 'cached',
      words:
        plan.cachedAgeSeconds === null
          ? msg('search.plan.cached')
          : msg('search.plan.cachedAge', { age: formatAge(plan.cachedAgeSeconds, locale) }),
    };
  }
  const atLeast = plan.callsAtLeast ? 'yes' : 'no';
  // A range partly held locally: only the rest goes upstream.
  const mixed = plan.source === 'mixed' ? 'yes' : 'no';
  const calls = msg('search.plan.calls', { atLeast, count: plan.calls });
  const tight = tightestWindow(plan.quota);
  if (waitSeconds > 0) {
    const why =
      tight && tight.remaining === 0
        ? msg('search.plan.noneLeft', {
            shared: tight.shared ? 'yes' : 'no',
            window: msg(`quota.window.${tight.name}`),
          })
        : msg('search.plan.busy');
    return { kind: 'waits', words: msg('search.plan.waits', { calls, mixed, why }) };
  }
  if (!tight) return { kind: 'spends', words: msg('search.plan.uses', { calls, mixed }) };
  return {
    kind: 'spends',
    words: msg('search.plan.usesOf', {
      atLeast,
      count: plan.calls,
      remaining: tight.remaining,
      shared: tight.shared ? 'yes' : 'no',
      window: msg(`quota.window.${tight.name}`),
      mixed,
    }),
  };
}
