/**
 * What pressing Search will cost, in one sentence ("uses 1 of 7 calls left this hour"), from the
 * search's plan (GET /api/plan) and the quota it carries.
 */
import { tightestWindow, WINDOW_WORDS } from '../governor';
import { formatAge } from '../i18n/format';
import type { SearchPlan } from './api';

export type PlanVerdict =
  | { kind: 'cached'; text: string }
  /** Answered by the local history: free, and (for what only it can do) which parts it cannot search. */
  | { kind: 'local'; text: string }
  | { kind: 'spends'; text: string }
  /** A call is needed and none is free yet: the text is completed by a live countdown. */
  | { kind: 'waits'; text: string };

/**
 * What pressing Search will cost, in one sentence. `waitSeconds`: how long until the next call can
 * go (the caller's live countdown to quotaWaitUntil), 0 when it can go now.
 */
export function planVerdict(plan: SearchPlan, waitSeconds: number): PlanVerdict {
  if (plan.source === 'history') {
    const gaps = plan.uncovered?.length ?? 0;
    if (gaps === 0) return { kind: 'local', text: 'Local history: no call.' };
    // One gap may be the whole range: said so that it is true either way.
    return {
      kind: 'local',
      text: `Local history: no call. Not copied yet, so not searched: ${gaps === 1 ? 'one stretch' : `${gaps} stretches`} of the range (see the History page).`,
    };
  }
  if (plan.calls === 0) {
    const age = plan.cachedAgeSeconds === null ? '' : `, ${formatAge(plan.cachedAgeSeconds)}`;
    return { kind: 'cached', text: `From cache${age}: no upstream call.` };
  }
  const calls = `${plan.callsAtLeast ? 'at least ' : ''}${plan.calls === 1 ? '1 upstream call' : `${plan.calls} upstream calls`}`;
  // A range partly held locally: only the rest goes upstream.
  const rest = plan.source === 'mixed' ? ' (the rest from the local history)' : '';
  const tight = tightestWindow(plan.quota);
  if (waitSeconds > 0) {
    const why =
      tight && tight.remaining === 0
        ? `no${tight.shared ? ' shared' : ''} call left ${WINDOW_WORDS[tight.name]}`
        : 'the upstream is busy';
    return { kind: 'waits', text: `Uses ${calls}${rest}; ${why}. Next free call in` };
  }
  if (!tight) return { kind: 'spends', text: `Uses ${calls}${rest}.` };
  const whose = tight.shared ? ' of the dashboard\u2019s shared calls' : ' calls';
  return {
    kind: 'spends',
    text: `Uses ${plan.callsAtLeast ? 'at least ' : ''}${plan.calls} of ${tight.remaining}${whose} left ${WINDOW_WORDS[tight.name]}${rest}.`,
  };
}
