import 'server-only';
/**
 * One step of a scope's copy: read the next page of the newest settled day not complete yet —
 * with one call at the `sync` class (the governor keeps it out of the calls kept for people and
 * under HISTORY_MAX_SHARE of every window, and paces it by the windows alone) — and stage it with
 * the day's progress in one transaction. A day whose pages are all read is built into the local
 * history's data in the background (./sync-day-builds.ts) while the copy goes on. The runner repeats
 * steps; a restart, an instance dying or a pause between two steps loses nothing and pays for
 * nothing twice.
 */
import type { Cdr } from '../cdr/schema';
import type { Config } from '../config';
import { QuotaExceededError } from '../governor/server';
import type { Logger } from '../log';
import { upstreamBase } from '../query/wire';
import type { CachePolicy } from '../cache/server';
import { callsSpentBy, type UpstreamAccount, type UpstreamGateway } from '../upstream/server';
import { isStoreBlocked, whenStoreAnswers } from '../db/unavailable';
import { paidPages } from '../background/server';
import type { HistoryDay, HistorySettings, HistoryStore } from './store/history-store';
import { stagedPage } from './store/staged-page';
import type { VaultStore } from '../auth/server';
import { CredentialsRefusedError, isRetryable, UpstreamError } from '../upstream/server';
import { backoffMs, MAX_FAILURES } from '../background';
import {
  applyPage,
  inDay,
  isComplete,
  LEGACY_PAGE_SIZE,
  nextPage,
  pageSizeOf,
  resizeWindow,
  startDay,
  type DayProgress,
  type DayWindow,
} from './sync-day-progress';
import type { PageSizes } from './sync-page-size';
import { pagesFor } from '../query/ranges';
import { MAX_PAGE } from '../query/query';
import { addDays, daysBetween, lastSettledDay, startOf } from './days';
import { DAY_MS } from '../time/units';
import { msg } from '../i18n/message';
import { firstKeptDay } from './retention';
import { receivedMs } from '../cdr/record-columns';
import type { DayBuilds } from './sync-day-builds';

export interface SyncDeps {
  history: HistoryStore;
  /** Days whose pages are all read go in here. */
  builds: Pick<DayBuilds, 'start' | 'resume'>;
  vault: VaultStore;
  gateway: Pick<UpstreamGateway, 'query' | 'nextCallAt'>;
  policy: CachePolicy;
  config: Pick<Config, 'HISTORY_MAX_DAYS'>;
  /** The page size to ask with, learnt from the upstream's answers (./sync-page-size.ts). */
  pageSizes: Pick<PageSizes, 'toAsk' | 'served' | 'refused'>;
  /** Opens a sealed secret; null when it cannot be opened. */
  secretOf(sealed: string): string | null;
  now(): number;
  log: Logger;
}

export type SyncOutcome = { next: 'continue' } | { next: 'wait'; until: number | null } | { next: 'stop' };

/**
 * A day whose copy met a problem is tried again after this long, twice as long after each rest
 * before (up to 16 times): a problem that does not pass (an upstream whose pages never match its
 * count) must not spend the copy's share on reading the same days again and again.
 */
const PROBLEM_RETRY_MS = 6 * 3600_000;
const MAX_REST_DOUBLINGS = 4;
/** A wait shorter than this is left to the governor's own queue. */
const SHORT_WAIT_MS = 1_000;

/** How long a page already paid for waits for a store that cannot be written (a database restarting) before it is given up. */
const STAGE_WAIT_MS = 60_000;

/** The days a scope wants, newest first: from its start day (and HISTORY_MAX_DAYS) to the newest settled one. */
export function wantedDays(
  settings: Pick<HistorySettings, 'sinceDay'>,
  maxDays: number,
  settledBefore: number,
  now: number,
): { first: string; last: string } {
  return { first: firstKeptDay(settings.sinceDay, now, maxDays), last: lastSettledDay(settledBefore) };
}

/** When the day after `last` becomes settled (the next day there is to copy). */
export function nextSettleAt(last: string, settledBefore: number, now: number): number {
  return now + (startOf(addDays(last, 2)) - settledBefore);
}

/** When a day with a problem is tried again (the copy goes on with the other days meanwhile). */
export function problemRetryAt(day: Pick<HistoryDay<DayProgress>, 'updatedAt' | 'progress'>): number {
  return day.updatedAt + PROBLEM_RETRY_MS * 2 ** Math.min(MAX_REST_DOUBLINGS, day.progress.rests ?? 0);
}

/**
 * The account the copy calls the upstream as: a live session's secret, or the one kept for
 * signed-out copying (`kept`).
 */
async function accountOf(
  deps: SyncDeps,
  settings: HistorySettings,
): Promise<{ account: UpstreamAccount; kept: boolean } | null> {
  const session = await deps.vault.liveSession(settings.apiKey, deps.now());
  const kept = !session?.sealedSecret;
  const sealed = session?.sealedSecret ?? (settings.keepSignedOut ? settings.sealedSecret : null);
  if (!sealed) return null;
  const secret = deps.secretOf(sealed);
  if (secret === null) return null;
  return {
    account: {
      apiKey: settings.apiKey,
      enterpriseId: settings.enterpriseId,
      credentials: async () => ({ apiKey: settings.apiKey, secret }),
    },
    kept,
  };
}

/** The day to copy next: the newest wanted day not complete (one with a problem rests a while). */
export function targetDay(
  complete: ReadonlySet<string>,
  unfinished: ReadonlyMap<string, HistoryDay<DayProgress>>,
  first: string,
  last: string,
  now: number,
): string | null {
  // Not `day = addDays(day, -1)` in the loop's update: Turbopack (Next 16.4) left that imported
  // name unresolved in the production build (addDays is not defined), which stopped every copy
  // after its first day. e2e/history.spec.ts runs the production build and guards this.
  for (const day of daysBetween(first, last).reverse()) {
    if (complete.has(day)) continue;
    const known = unfinished.get(day);
    if (!known) return day;
    if (known.state === 'building') continue;
    if (known.progress.problem && now < problemRetryAt(known)) continue;
    return day;
  }
  return null;
}

export async function runSyncStep(deps: SyncDeps, scope: string, signal?: AbortSignal): Promise<SyncOutcome> {
  const { history, policy } = deps;
  const settings = await history.getSettings(scope);
  if (!settings?.enabled) return { next: 'stop' };
  const now = deps.now();
  const settledBefore = policy.settledBefore(now);
  const { first, last } = wantedDays(settings, deps.config.HISTORY_MAX_DAYS, settledBefore, now);
  // The complete days by name only: a long copy has hundreds, and each step would read them all.
  const [unfinishedDays, completeDays] = await Promise.all([
    history.unfinishedDays<DayProgress>(scope),
    first <= last ? history.completeDays(scope, first, last) : [],
  ]);
  const days = new Map(unfinishedDays.map((d) => [d.day, d]));
  // Days read in full whose build stopped (a restart): built again, adding only what is missing.
  // (A day still being read gets its build with its next page.)
  for (const d of days.values()) if (d.state === 'building') deps.builds.resume(scope, d.day, settings.apiKey);
  const day = first <= last ? targetDay(new Set(completeDays), days, first, last, now) : null;
  if (!day) {
    // Nothing to read: a complete day without its pack (copied before packs existed, or given a
    // record since) gets one, built when the writer has nothing else to do.
    await history.queueMissingPacks(scope);
    return { next: 'wait', until: nextSettleAt(last, settledBefore, now) };
  }

  const signedIn = await accountOf(deps, settings);
  if (!signedIn) return { next: 'wait', until: null }; // until someone signs in (the runner looks again)
  const { account } = signedIn;
  const next = await deps.gateway.nextCallAt(settings.apiKey, 'sync');
  if (!Number.isFinite(next.at)) return { next: 'wait', until: now + 3600_000 };
  if (next.at - now > SHORT_WAIT_MS) return { next: 'wait', until: next.at };

  const row: HistoryDay<DayProgress> = days.get(day) ?? {
    day,
    state: 'syncing',
    progress: startDay(day),
    records: 0,
    calls: 0,
    updatedAt: now,
    completedAt: null,
  };
  // Rested long enough: tried afresh, remembering how often it rested.
  if (row.progress.problem) row.progress = { ...startDay(day), rests: (row.progress.rests ?? 0) + 1 };
  const target = nextPage(row.progress);
  if (!target) {
    // Every page read: complete, or a problem to rest on.
    await finish(deps, scope, settings.apiKey, row);
    return { next: 'continue' };
  }
  const { window: w } = target;
  const asked = await sizeToAsk(deps, w);
  const page = w.pagesDone + 1;
  const base = upstreamBase(
    { from: new Date(w.from), to: new Date(w.to), filters: {} },
    { enterpriseId: settings.enterpriseId, pageSize: asked },
  );
  let body;
  let sent;
  // A page paid for by a step whose store write failed (a full disk) is staged now, not paid again.
  const paidKey = `sync:${scope}:${base.key}:${page}`;
  try {
    ({ page: body, calls: sent } = await paidPages().fetch(paidKey, () =>
      deps.gateway.query(account, { base, page, sortOrder: 'asc' }, 'sync', signal),
    ));
  } catch (err) {
    if (signal?.aborted) return { next: 'stop' };
    return failed(deps, scope, settings, row, err, signedIn.kept, { window: w, asked });
  }
  servedAt(w, await deps.pageSizes.served(asked, body));
  const dayStart = startOf(day);
  const cdrs = body._embedded.cdrs as Cdr[];
  let kept = 0;
  let beyond = 0;
  for (const cdr of cdrs) {
    const at = receivedMs(cdr);
    if (at === null) continue;
    if (inDay(dayStart, at)) kept += 1;
    else if (at === dayStart + DAY_MS) beyond += 1;
  }
  applyPage(row.progress, w.id, page, body._embedded.total_found, cdrs.length, beyond, pageSizeOf(w));
  row.calls += sent;
  // Counted as read: a record read twice (windows share their ends) is counted once when built.
  row.records += kept;
  const staged = cdrs.length > 0 ? stagedPage(cdrs) : null;
  // The page is paid for: staged even when the store cannot be written this moment (a database
  // restarting), tried again for up to a minute; past that (a disk full until someone frees it)
  // it stays held in memory for the next step.
  await whenStoreAnswers(() => finish(deps, scope, settings.apiKey, row, staged), {
    maxWaitMs: STAGE_WAIT_MS,
    onWait: (err, waitMs) =>
      deps.log.warn('history.page_waits_for_store', {
        waitMs,
        error: err instanceof Error ? err.message : String(err),
      }),
  }).catch((err: unknown) => {
    if (!isStoreBlocked(err)) paidPages().stored(paidKey);
    throw err;
  });
  paidPages().stored(paidKey);
  return { next: 'continue' };
}

/**
 * The size a window's next page is asked with: the one it is read at, unless the size known now
 * is smaller (the upstream refused or served less meanwhile: the window is counted at it from
 * now on); a window not begun takes the size known now (the probe's while none is known).
 */
async function sizeToAsk(deps: SyncDeps, w: DayWindow): Promise<number> {
  const now = await deps.pageSizes.toAsk();
  if (w.pageSize === undefined) {
    if (w.pagesDone === 0 && w.total === null) w.pageSize = now;
    else w.pageSize = LEGACY_PAGE_SIZE;
  }
  if (now < w.pageSize) resizeWindow(w, now);
  return w.pageSize;
}

/**
 * The upstream served the page at `served` records a page: the window is counted at that size
 * (never at the size asked), its pages to read from what it says it holds.
 */
function servedAt(w: DayWindow, served: number): void {
  if (served === pageSizeOf(w)) return;
  w.pageSize = served;
  if (w.total !== null) w.pagesTotal = Math.max(1, pagesFor(w.total, served, MAX_PAGE));
}

/** Stages what a step learnt, and has it built; a day every page of which is read and counted is complete once built. */
async function finish(
  deps: SyncDeps,
  scope: string,
  apiKey: string,
  row: HistoryDay<DayProgress>,
  records: string | null = null,
): Promise<void> {
  row.updatedAt = deps.now();
  if (isComplete(row.progress)) row.state = 'building';
  await deps.history.stageDayPage(scope, row, records);
  if (records !== null || row.state === 'building') deps.builds.start(scope, row.day, apiKey);
}

/** `kept`: the call was made with the secret kept for signed-out copying; `read`: the window read and the size asked. */
async function failed(
  deps: SyncDeps,
  scope: string,
  settings: HistorySettings,
  row: HistoryDay<DayProgress>,
  err: unknown,
  kept: boolean,
  read?: { window: DayWindow; asked: number },
): Promise<SyncOutcome> {
  const now = deps.now();
  if (err instanceof QuotaExceededError) return { next: 'wait', until: err.nextCallAt };
  if (err instanceof UpstreamError && read) {
    // The upstream refused the page size (the probe's, or one it accepted before): read on at the
    // fallback, the call counted, no page read again (./sync-page-size.ts).
    const size = await deps.pageSizes.refused(read.asked, err.status);
    if (size !== null) {
      row.calls += callsSpentBy(err);
      resizeWindow(read.window, size);
      await deps.history.stageDayPage(scope, { ...row, updatedAt: now }, null);
      return { next: 'continue' };
    }
  }
  if (err instanceof CredentialsRefusedError) {
    // The token endpoint refused the secret (changed upstream); no query was sent. The gateway
    // ended the sessions signed in with it. A kept secret is dropped, or every look of the runner
    // would ask the token endpoint again with it: the copy waits for someone to sign in, and
    // keeping on while signed out is turned on again from the History page.
    if (kept) {
      await deps.history.putSettings({ ...settings, keepSignedOut: false, sealedSecret: null, updatedAt: now });
      deps.log.warn('history.kept_secret_refused', { status: err.status });
    }
    return { next: 'wait', until: null };
  }
  if (err instanceof UpstreamError) {
    // The calls sent count even though they failed (none when the token could not be had).
    row.calls += callsSpentBy(err);
    // A 401 here came after the gateway renewed the token and asked again: the upstream refuses this
    // key's queries for now. Retried as a fault that may pass, later each time (not every look of
    // the runner, two calls each).
    if (isRetryable(err) || err.kind === 'malformed' || err.kind === 'unauthorized') {
      // Later each time; a fault that does not pass rests the day (problemRetryAt), so it neither
      // spends the copy's share of the day nor holds the older days back.
      const failures = (row.progress.failures ?? 0) + 1;
      row.progress.failures = failures > MAX_FAILURES ? 0 : failures;
      if (failures > MAX_FAILURES) {
        row.progress.problem = msg('history.server.failedInARow', { failures, kind: err.kind.replace('_', ' ') });
        deps.log.warn('history.day_rested', { kind: err.kind, failures });
      }
      await deps.history.stageDayPage(scope, { ...row, updatedAt: now }, null);
      if (failures > MAX_FAILURES) return { next: 'continue' };
      return { next: 'wait', until: now + Math.max(backoffMs(failures), err.retryAfterMs ?? 0) };
    }
    // The upstream refuses the copy's query for good (400, 403): the copy stops, saying why, rather
    // than spending a call on every day.
    const status = String(err.status ?? err.kind);
    row.progress.problem = err.upstreamMessage
      ? msg('history.server.refusedSaying', { status, upstream: err.upstreamMessage })
      : msg('history.server.refused', { status });
    row.progress.stoppedCopy = true;
    await deps.history.stageDayPage(scope, { ...row, updatedAt: now }, null);
    await deps.history.putSettings({ ...settings, enabled: false, updatedAt: now });
    deps.log.warn('history.refused', { status: err.status, kind: err.kind });
    return { next: 'stop' };
  }
  throw err;
}
