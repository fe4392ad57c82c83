/**
 * The governor's decision, pure: given every call of the last day and the upstream's holds, may a
 * call of this account and class go now — and if not, when, and which window decides it. Who waits
 * for it, in which order, is the queue's (queue.ts). Kept free of clocks, queues and stores so each
 * rule is tested on its own (decision.test.ts), and so several instances that share a ledger
 * (PostgreSQL) reach the same decision from the same rows.
 *
 * The rules (README, "Whose limits"):
 *  - per account, sliding windows of a minute, an hour and a day (3/10/100 by default);
 *  - background work (exports, the local history's copy) leaves `backgroundReserve` calls of each
 *    hour and day, and one of each minute, to people; the copy takes at most `syncShare` of any window;
 *  - optional windows for the whole deployment (an upstream that counts per client IP): there,
 *    `holdbackShare` of each window is kept for accounts that have not used that window yet, so
 *    an account that spent nothing is not refused because another spent everything;
 *  - token requests (sign-ins, renewals) have their own deployment-wide cap a minute, part of which
 *    sign-ins never take, so a flood of sign-ins cannot stop a signed-in person's renewal;
 *  - an account the upstream answered 429 waits as long as it was told.
 */
import type { WindowName } from './api';
import { countsInQueryWindows, isBackground, isSignIn, isTokenCall, type CallClass } from './classes';
import { usage, windowLimits, type WindowLimit } from './windows';
import { MINUTE_MS } from '../time/units';

export interface WindowLimits {
  perMinute: number;
  perHour: number;
  perDay: number;
}

export interface PolicyLimits {
  account: WindowLimits;
  /** Windows for all accounts together; null: the upstream counts per account only. */
  deployment: WindowLimits | null;
  /** Calls of each hour and day that background work leaves to people. */
  backgroundReserve: number;
  /** The largest share of any window the local history's copy may take (0..1). */
  syncShare: number;
  /** Share of each deployment window kept for accounts that have not used it (0..1). */
  holdbackShare: number;
  /** Token requests a minute, the whole deployment. */
  tokensPerMinute: number;
  /** How much longer than its window a call is counted (./windows.ts): the upstream counts arrivals. Default 0. */
  arrivalMarginMs?: number;
}

export interface CallRecord {
  account: string;
  /** When it was sent (ms). */
  at: number;
  cls: CallClass;
}

/** What decisions are made on: every call of the last day (oldest first) and the upstream's holds. */
export interface GovernorState {
  calls: readonly CallRecord[];
  blocks: ReadonlyMap<string, number>;
}

export type LimitedBy = WindowName | 'upstream' | 'tokens' | 'in-flight';

export interface Verdict {
  /** When the call may go: <= now means now; Infinity means never at these limits. */
  at: number;
  limitedBy: LimitedBy | null;
  scope: 'account' | 'deployment';
  /** The deciding window's limit (for the messages). */
  limit?: number;
  /** For a deployment window: how many accounts have used it. */
  sharedBy?: number;
  /** The shared window still has calls, but they are kept for accounts that have not used it. */
  held?: boolean;
}

const NOW: Verdict = { at: Number.NEGATIVE_INFINITY, limitedBy: null, scope: 'account' };

function later(a: Verdict, b: Verdict): Verdict {
  return b.at > a.at ? b : a;
}

/** Part of a window kept for accounts that have not used it: at least one call when the window has two. */
export function holdbackOf(limit: number, share: number): number {
  if (limit < 2 || share <= 0) return 0;
  return Math.min(limit - 1, Math.max(1, Math.ceil(limit * share)));
}

/** Token requests a minute that sign-ins may take: a fifth of the cap stays for renewals. */
export function signInTokenLimit(tokensPerMinute: number): number {
  return tokensPerMinute >= 3 ? tokensPerMinute - Math.ceil(tokensPerMinute / 5) : tokensPerMinute;
}

/**
 * Sign-ins from addresses their key has not signed in from lately take at most half of the
 * sign-ins' token calls (at least one): made-up keys sent from anywhere cannot keep owners coming
 * back from their usual address out.
 */
export function newAddressSignInLimit(tokensPerMinute: number): number {
  return Math.max(1, Math.floor(signInTokenLimit(tokensPerMinute) / 2));
}

/** The three windows of `base`, each with the configured margin. */
export function windowsOf(base: WindowLimits, limits: PolicyLimits): WindowLimit[] {
  return windowLimits(base, limits.arrivalMarginMs ?? 0);
}

/**
 * The windows a call of `cls` sees out of `base`: background stops short of the reserve in the hour
 * and the day, and of one call in the minute (when the minute has more than one and there is a
 * reserve at all). Without that, an export's first calls take the whole minute, and its person's
 * search waits the minute out. The hour binds background work long before the minute does (7 of
 * 10 an hour against 2 of 3 a minute), so only an export's first burst is slower.
 */
function windowsFor(base: WindowLimits, cls: CallClass, limits: PolicyLimits): WindowLimit[] {
  const reserve = limits.backgroundReserve;
  if (!isBackground(cls) || reserve === 0) return windowsOf(base, limits);
  return windowsOf(base, limits).map((w) => {
    if (w.name !== 'minute') return { ...w, limit: Math.max(0, w.limit - reserve) };
    return w.limit > 1 ? { ...w, limit: w.limit - 1 } : w;
  });
}

/** The times of the calls `keep` picks, oldest first. */
export function timesOf(calls: readonly CallRecord[], keep: (c: CallRecord) => boolean): number[] {
  const out: number[] = [];
  for (const c of calls) if (keep(c)) out.push(c.at);
  return out;
}

function windowVerdict(
  times: readonly number[],
  now: number,
  w: WindowLimit,
  scope: Verdict['scope'],
  extra: Partial<Verdict> = {},
): Verdict {
  const u = usage(times, now, w);
  return u.allowsAt > now ? { at: u.allowsAt, limitedBy: w.name, scope, limit: w.limit, ...extra } : NOW;
}

/** How many accounts have query calls in the window that ends now. */
export function accountsIn(calls: readonly CallRecord[], now: number, ms: number): number {
  const seen = new Set<string>();
  for (const c of calls) if (c.at > now - ms && countsInQueryWindows(c.cls)) seen.add(c.account);
  return seen.size;
}

/** When a call of `account` and `cls` may go, and which rule decides it. */
export function verdict(
  state: GovernorState,
  limits: PolicyLimits,
  account: string,
  cls: CallClass,
  now: number,
): Verdict {
  let v: Verdict = NOW;
  if (countsInQueryWindows(cls)) {
    const own = state.calls.filter((c) => c.account === account && countsInQueryWindows(c.cls));
    const ownTimes = own.map((c) => c.at);
    for (const w of windowsFor(limits.account, cls, limits)) v = later(v, windowVerdict(ownTimes, now, w, 'account'));
    if (cls === 'sync') {
      const syncTimes = timesOf(own, (c) => c.cls === 'sync');
      for (const w of windowsOf(limits.account, limits))
        v = later(v, windowVerdict(syncTimes, now, { ...w, limit: Math.floor(w.limit * limits.syncShare) }, 'account'));
    }
    if (limits.deployment) v = later(v, deploymentVerdict(state, limits, limits.deployment, ownTimes, cls, now));
  }
  // The upstream said to wait (a 429 of its query API or of its token endpoint): every call of the
  // account waits, its token renewals too (and a 429 of a sign-in holds every sign-in).
  const blocked = state.blocks.get(account) ?? 0;
  if (blocked > now) v = later(v, { at: blocked, limitedBy: 'upstream', scope: 'account' });
  if (isTokenCall(cls)) {
    const minute = MINUTE_MS + (limits.arrivalMarginMs ?? 0);
    const tokens = timesOf(state.calls, (c) => isTokenCall(c.cls));
    const limit = isSignIn(cls) ? signInTokenLimit(limits.tokensPerMinute) : limits.tokensPerMinute;
    const w = windowVerdict(tokens, now, { name: 'minute', ms: minute, limit }, 'deployment');
    if (w.at > now) v = later(v, { ...w, limitedBy: 'tokens' });
    if (cls === 'signin-new') {
      const fresh = timesOf(state.calls, (c) => c.cls === 'signin-new');
      const share = windowVerdict(
        fresh,
        now,
        { name: 'minute', ms: minute, limit: newAddressSignInLimit(limits.tokensPerMinute) },
        'deployment',
      );
      if (share.at > now) v = later(v, { ...share, limitedBy: 'tokens' });
    }
  }
  return v.at > now ? v : { at: now, limitedBy: null, scope: 'account' };
}

/**
 * The deployment's windows. An account that has used a window already must leave the held-back
 * part of it to others; it counts as new again once its last call has left the window.
 */
function deploymentVerdict(
  state: GovernorState,
  limits: PolicyLimits,
  deployment: WindowLimits,
  ownTimes: readonly number[],
  cls: CallClass,
  now: number,
): Verdict {
  const all = timesOf(state.calls, (c) => countsInQueryWindows(c.cls));
  let v: Verdict = NOW;
  for (const w of windowsFor(deployment, cls, limits)) {
    const extra = { sharedBy: accountsIn(state.calls, now, w.ms) };
    const full = windowVerdict(all, now, w, 'deployment', extra);
    const ownInWindow = ownTimes.filter((t) => t > now - w.ms);
    const hold = holdbackOf(windowsOf(deployment, limits).find((x) => x.name === w.name)!.limit, limits.holdbackShare);
    if (ownInWindow.length === 0 || hold === 0) {
      v = later(v, full);
      continue;
    }
    const share = windowVerdict(all, now, { ...w, limit: Math.max(0, w.limit - hold) }, 'deployment', {
      ...extra,
      held: full.at <= now,
    });
    // When the whole window is used, not only the account's share of it, the message names the whole window.
    const held = share.at > now && !share.held ? { ...share, limit: w.limit } : share;
    // Either the held window frees, or the account's own calls leave it and it is new again.
    const newAgainAt = Math.max(...ownInWindow) + w.ms;
    const asNew = full.at > newAgainAt ? full : { ...held, at: newAgainAt };
    v = later(v, held.at <= asNew.at ? held : asNew);
  }
  return v;
}

/** Background calls a minute, an hour and a day at these limits (the tightest rule). */
export function backgroundRate(limits: PolicyLimits, cls: CallClass): WindowLimits {
  const pick = (name: WindowName) => {
    let limit = windowsFor(limits.account, cls, limits).find((w) => w.name === name)!.limit;
    if (limits.deployment)
      limit = Math.min(limit, windowsFor(limits.deployment, cls, limits).find((w) => w.name === name)!.limit);
    if (cls === 'sync')
      limit = Math.min(
        limit,
        Math.floor(windowsOf(limits.account, limits).find((w) => w.name === name)!.limit * limits.syncShare),
      );
    return limit;
  };
  return { perMinute: pick('minute'), perHour: pick('hour'), perDay: pick('day') };
}
