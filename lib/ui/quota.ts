/**
 * Reading a QuotaSnapshot / SearchPlan for people: which limit binds, how long until the next
 * free call, and the one sentence said before a search ("uses 1 of 7 calls left this hour").
 */
import type { QuotaSnapshot, QuotaWindow, SearchPlan, WindowName } from '@/lib/api/types';
import { formatAge } from './format';

export const WINDOW_WORDS: Record<WindowName, string> = { minute: 'this minute', hour: 'this hour', day: 'today' };

const WINDOW_RANK: Record<WindowName, number> = { minute: 0, hour: 1, day: 2 };

/**
 * The window with the fewest calls left — the account's own or, where the upstream counts per IP,
 * the dashboard's shared one — on a tie the longer one, because it refills more slowly and is the
 * one worth knowing about.
 */
export function tightestWindow(quota: QuotaSnapshot): (QuotaWindow & { shared: boolean }) | undefined {
  const all = [...quota.windows.map((w) => ({ ...w, shared: false })), ...(quota.shared ?? []).map((w) => ({ ...w, shared: true }))];
  return all.sort((a, b) => a.remaining - b.remaining || WINDOW_RANK[b.name] - WINDOW_RANK[a.name])[0];
}

/** The shared windows that hold the account back more than its own (shown in the meter, labelled). */
export function bindingSharedWindows(quota: QuotaSnapshot): QuotaWindow[] {
  return (quota.shared ?? []).filter((s) => s.remaining < (quota.windows.find((w) => w.name === s.name)?.remaining ?? Number.POSITIVE_INFINITY));
}

/** The later of nextCallAt and blockedUntil as an epoch ms (may be in the past: then a call can go). */
export function quotaWaitUntil(quota: QuotaSnapshot): number | null {
  const times = [quota.nextCallAt, quota.blockedUntil].map((t) => (t ? Date.parse(t) : NaN)).filter((t) => !Number.isNaN(t));
  return times.length > 0 ? Math.max(...times) : null;
}

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
  if (plan.source === 'mirror') {
    const gaps = plan.uncovered?.length ?? 0;
    if (gaps === 0) return { kind: 'local', text: 'Local history: no call.' };
    // One gap may be the whole range: said so that it is true either way.
    return { kind: 'local', text: `Local history: no call. Not copied yet, so not searched: ${gaps === 1 ? 'one stretch' : `${gaps} stretches`} of the range (see the History page).` };
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
    const why = tight && tight.remaining === 0 ? `no${tight.shared ? ' shared' : ''} call left ${WINDOW_WORDS[tight.name]}` : 'the upstream is busy';
    return { kind: 'waits', text: `Uses ${calls}${rest}; ${why}. Next free call in` };
  }
  if (!tight) return { kind: 'spends', text: `Uses ${calls}${rest}.` };
  const whose = tight.shared ? ' of the dashboard\u2019s shared calls' : ' calls';
  return { kind: 'spends', text: `Uses ${plan.callsAtLeast ? 'at least ' : ''}${plan.calls} of ${tight.remaining}${whose} left ${WINDOW_WORDS[tight.name]}${rest}.` };
}
