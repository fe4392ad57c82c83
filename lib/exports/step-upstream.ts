import 'server-only';
/**
 * Reading a window's next upstream page: from the dashboard's cache when it holds this very page
 * fresh ("minus pages already cached"), else with one background call through the governor — once
 * the quota lets one go soon, as the job's account, renewed with a live session's secret. The page
 * paid for is kept (keep-upstream-page.ts); a failure says what the job waits for, or why it stopped
 * (step-errors.ts).
 */
import { randomUUID } from 'node:crypto';
import type { ResultPage } from '../cdr/schema';
import { isStoreBlocked, whenStoreAnswers } from '../db/unavailable';
import { paidPages } from '../background/server';
import type { ExportJobRecord, StoredWindow } from './job-row';
import { windowBase } from './job-record';
import type { LaterWrites } from './later-writes';
import { accountFor, SIGN_IN_MESSAGE } from './job-account';
import { at, save, wait } from './job-state';
import { keepPage } from './keep-upstream-page';
import { handleError } from './step-errors';
import { commit, pageRead } from './store-page';
import type { StepDeps, StepOutcome } from './step-deps';

/** A wait shorter than this is left to the governor's own queue. */
const SHORT_WAIT_MS = 1_000;

/** How long a page already paid for waits for a store that cannot be written (a database restarting) before it is given up. */
const KEEP_PAGE_WAIT_MS = 60_000;

export async function upstreamStep(
  deps: StepDeps,
  job: ExportJobRecord,
  w: StoredWindow,
  later: LaterWrites,
  signal: AbortSignal | undefined,
): Promise<StepOutcome> {
  const jobId = job.id;
  const now = deps.now();
  const page = w.pagesDone + 1;
  const base = windowBase(job, w);
  const key = base.key;
  const sortOrder = job.query.sortOrder;

  // "Minus pages already cached": the dashboard's cache, when it holds this very page fresh.
  const cached = await deps.cache.getPage(job.account, key, sortOrder, page);
  if (cached && cached.expiresAt > now && (w.totalFound === null || cached.totalFound === w.totalFound)) {
    // No call to overlap with: what waits is written now.
    await later.flush();
    await commit(deps, job, w.id, page, pageRead(cached.body), 'cache');
    return { next: 'continue' };
  }

  const account = await accountFor(deps, job);
  if (!account) return wait(deps, job, null, SIGN_IN_MESSAGE);
  const next = await deps.gateway.nextCallAt(job.account, 'export');
  if (!Number.isFinite(next.at)) {
    return wait(
      deps,
      job,
      now + 3600_000,
      `Waiting: the ${deps.gateway.limits.backgroundReserve} calls kept for interactive use take every call of a window, so background work never gets one. Lower UPSTREAM_BACKGROUND_RESERVE.`,
      'quota',
    );
  }
  if (next.at - now > SHORT_WAIT_MS) {
    const why =
      next.limitedBy === 'upstream'
        ? 'the Report API asked us to wait'
        : next.scope === 'deployment'
          ? "the dashboard's shared calls for now are used up"
          : "this account's background calls for now are used up";
    return wait(
      deps,
      job,
      next.at,
      `Waiting for quota until ${at(next.at, job)}: ${why}.`,
      next.limitedBy === 'upstream' ? undefined : 'quota',
    );
  }
  if (job.state !== 'running')
    await save(deps, job, { state: 'running', waitingUntil: null, waitingFor: undefined, message: null });

  let body: ResultPage;
  let calls: number;
  // A page paid for by a step whose store write failed (a full disk) is stored now, not paid again.
  const paidKey = `export:${jobId}:${key}:${sortOrder}:${page}`;
  const call = paidPages().fetch(paidKey, () =>
    deps.gateway.query(account, { base, page, sortOrder }, 'export', signal),
  );
  // The previous page's copy for the dashboard is written while this call is in flight.
  const writing = later.flushSoon();
  try {
    ({ page: body, calls } = await call);
  } catch (err) {
    await writing;
    if (signal?.aborted) return { next: 'stop' };
    const current = await deps.store.getJob(jobId);
    if (!current || current.state === 'cancelled') return { next: 'stop' };
    return handleError(deps, current, err);
  }
  const fetchedAt = deps.now();
  const readId = randomUUID();
  await writing;
  // The page is paid for: kept even when the store cannot be written this moment (a database
  // restarting), tried again for up to a minute, each time from the job as stored then; past that
  // (a disk full until someone frees it) it stays held in memory for the next step.
  const kept = await whenStoreAnswers(
    () => keepPage(deps, { jobId, w, page, key, body, calls, fetchedAt, readId }, later, signal),
    {
      maxWaitMs: KEEP_PAGE_WAIT_MS,
      onWait: (err, waitMs) =>
        deps.log.warn('export.page_waits_for_store', {
          job: jobId,
          waitMs,
          error: err instanceof Error ? err.message : String(err),
        }),
    },
  ).catch((err: unknown) => {
    if (!isStoreBlocked(err)) paidPages().stored(paidKey);
    throw err;
  });
  paidPages().stored(paidKey);
  return kept;
}
