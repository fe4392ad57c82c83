import 'server-only';
/**
 * One step of a reconciliation: the next task's next page — from the dashboard's page cache when it
 * holds it fresh, else one background call through the governor (the exports' class: behind
 * people, never in the calls kept for them) — or the next lookup, and what it answered written
 * with the task's progress in one transaction (./page-answer.ts) before anything else happens. The
 * runner repeats steps until the job is done or has to wait.
 *
 * Why a step and not a loop: every step starts from the stored job, so a restart, a deletion or a
 * crash between two steps loses nothing and pays for nothing twice.
 */
import { randomUUID } from 'node:crypto';
import type { VaultEntry, VaultStore } from '../auth/server';
import { backgroundAccount, SignInNeededError } from '../background/server';
import { msg } from '../i18n/message';
import { backoffMs, MAX_FAILURES } from '../background';
import type { CachePolicy, PageCacheStore } from '../cache/server';
import type { ResultPage } from '../cdr/schema';
import type { Config } from '../config';
import { whenStoreAnswers } from '../db/unavailable';
import { retentionEnd } from '../exports/server';
import { QuotaExceededError } from '../governor/server';
import type { Logger } from '../log';
import { pageFault } from '../query/ranges';
import type { UpstreamBase } from '../query/wire';
import { callsSpentBy, isRetryable, UpstreamError, type UpstreamGateway } from '../upstream/server';
import { isActiveReconcileState, type ReconcileMessage } from './api';
import { ReconcileJobGoneError, type ReconcileJobStore } from './job-store';
import type { ReconcileJobRecord, StoredTask } from './job-row';
import { keepLookup, keepPage, taskQuery } from './page-answer';
import { summarizeJob } from './job-summary';

export interface StepDeps {
  store: ReconcileJobStore;
  cache: PageCacheStore;
  policy: CachePolicy;
  vault: Pick<VaultStore, 'liveSession'>;
  /** Opens a vault entry's sealed secret; null when it cannot be opened. */
  secretOf(entry: VaultEntry): string | null;
  gateway: Pick<UpstreamGateway, 'query' | 'detail' | 'nextCallAt' | 'limits'>;
  config: Pick<Config, 'EXPORT_RETENTION_DAYS'>;
  /** Told after a page was shared with the dashboard's cache (a complete result may go to the local history). */
  onSharedPage(
    account: { apiKey: string; enterpriseId: string | null },
    base: UpstreamBase,
    sortOrder: 'asc',
    totalFound: number,
  ): void;
  now(): number;
  log: Logger;
}

export type StepOutcome = { next: 'continue' } | { next: 'wait'; until: number | null } | { next: 'stop' };

/** A wait shorter than this is left to the governor's own queue. */
const SHORT_WAIT_MS = 1_000;
/** Times a page that is not whole is asked for again before it is kept as sent. */
const MAX_PAGE_REREADS = 2;
/** How long a page already paid for waits for a store that cannot be written before it is given up. */
const KEEP_PAGE_WAIT_MS = 60_000;
const HOUR_MS = 3_600_000;

const iso = (ms: number) => new Date(ms).toISOString();

async function save(deps: StepDeps, job: ReconcileJobRecord, changes: Partial<ReconcileJobRecord>): Promise<void> {
  Object.assign(job, changes, { updatedAt: deps.now() });
  if (!(await deps.store.saveJob(job))) throw new ReconcileJobGoneError(job.id);
}

async function wait(
  deps: StepDeps,
  job: ReconcileJobRecord,
  until: number | null,
  message: ReconcileMessage,
  waitingFor?: 'quota',
): Promise<StepOutcome> {
  await save(deps, job, { state: 'waiting', waitingUntil: until, message, waitingFor });
  return { next: 'wait', until };
}

/** Stops the job for good; what it answered stays, and the rows it could not answer stay unanswered. */
async function fail(deps: StepDeps, job: ReconcileJobRecord, message: ReconcileMessage): Promise<StepOutcome> {
  const now = deps.now();
  const summary = await summarizeJob(deps.store, job);
  await save(deps, job, {
    state: 'failed',
    message,
    summary,
    waitingUntil: null,
    finishedAt: now,
    expiresAt: retentionEnd(now, deps.config),
  });
  deps.log.warn('reconcile.failed', { job: job.id, account: job.account, reason: message.code });
  return { next: 'stop' };
}

/** Every task done: the rows still open get their final outcome, the summary is kept, and the job is done. */
async function finish(deps: StepDeps, job: ReconcileJobRecord): Promise<StepOutcome> {
  await deps.store.finishRows(job.id);
  const now = deps.now();
  const summary = await summarizeJob(deps.store, job);
  await save(deps, job, {
    state: 'done',
    summary,
    message: null,
    waitingUntil: null,
    finishedAt: now,
    expiresAt: retentionEnd(now, deps.config),
  });
  deps.log.info('reconcile.done', { job: job.id, account: job.account, calls: job.callsSpent });
  return { next: 'stop' };
}

async function handleError(deps: StepDeps, job: ReconcileJobRecord, err: unknown): Promise<StepOutcome> {
  const now = deps.now();
  if (err instanceof SignInNeededError) {
    // This session's secret is of no use: only a session signed in from now on can help.
    job.signInNeededSince = now;
    return wait(deps, job, null, { code: 'secret-unreadable' });
  }
  if (err instanceof QuotaExceededError) {
    // The upstream's own hold (a 429's Retry-After) is kept as it is; the governor's guess is asked again.
    return wait(
      deps,
      job,
      err.nextCallAt,
      { code: err.limitedBy === 'upstream' ? 'waiting-upstream' : 'waiting-quota', until: iso(err.nextCallAt) },
      err.limitedBy === 'upstream' ? undefined : 'quota',
    );
  }
  if (err instanceof UpstreamError) {
    // Calls sent count against the windows even though they failed.
    job.callsSpent += callsSpentBy(err);
    if (err.kind === 'unauthorized') {
      job.signInNeededSince = now;
      return wait(deps, job, null, { code: 'credentials-refused' });
    }
    if (isRetryable(err) || err.kind === 'malformed') {
      const failures = job.failures + 1;
      if (failures > MAX_FAILURES)
        return fail(deps, job, { code: 'failed-upstream', status: err.kind, attempts: failures });
      const until = now + Math.max(backoffMs(failures), err.retryAfterMs ?? 0);
      job.failures = failures;
      deps.log.info('reconcile.retry', { job: job.id, account: job.account, error: err.kind, failures });
      return wait(deps, job, until, {
        code: 'retrying',
        until: iso(until),
        status: err.kind,
        attempt: failures + 1,
        attempts: MAX_FAILURES + 1,
      });
    }
    return fail(deps, job, { code: 'refused-upstream', status: String(err.status ?? err.kind) });
  }
  deps.log.error('reconcile.unexpected', {
    job: job.id,
    account: job.account,
    error: err instanceof Error ? err.message : String(err),
  });
  return fail(deps, job, { code: 'failed-server' });
}

/** Waits for quota before a call the governor would hold longer than a moment; null: go now. */
async function waitForQuota(deps: StepDeps, job: ReconcileJobRecord): Promise<StepOutcome | null> {
  const now = deps.now();
  const next = await deps.gateway.nextCallAt(job.account, 'export');
  if (!Number.isFinite(next.at))
    return wait(deps, job, now + HOUR_MS, { code: 'waiting-reserve', until: iso(now + HOUR_MS) }, 'quota');
  if (next.at - now <= SHORT_WAIT_MS) return null;
  const upstream = next.limitedBy === 'upstream';
  return wait(
    deps,
    job,
    next.at,
    { code: upstream ? 'waiting-upstream' : 'waiting-quota', until: iso(next.at) },
    upstream ? undefined : 'quota',
  );
}

/** Pages of a task after those read that cost a call: the page cache holds the others fresh. */
function pagesToRead(deps: StepDeps) {
  return async (job: ReconcileJobRecord, task: StoredTask): Promise<number> => {
    const key = taskQuery(job, task).key;
    const now = deps.now();
    let calls = 0;
    for (let page = task.pagesDone + 1; page <= (task.pagesTotal ?? 0); page++) {
      const cached = await deps.cache.getPage(job.account, key, 'asc', page);
      if (!cached || cached.expiresAt <= now || cached.totalFound !== task.totalFound) calls += 1;
    }
    return calls;
  };
}

const answerDeps = (deps: StepDeps) => ({ store: deps.store, now: deps.now, pagesToRead: pagesToRead(deps) });

/** Runs one step of job `jobId`. `signal` aborts a call in flight (deletion, shutdown). */
export async function runReconcileStep(deps: StepDeps, jobId: string, signal?: AbortSignal): Promise<StepOutcome> {
  try {
    return await step(deps, jobId, signal);
  } catch (err) {
    // Deleted while this step ran: what it read is not written, and it stops.
    if (err instanceof ReconcileJobGoneError) return { next: 'stop' };
    throw err;
  }
}

async function step(deps: StepDeps, jobId: string, signal: AbortSignal | undefined): Promise<StepOutcome> {
  const job = await deps.store.getJob(jobId);
  if (!job || !isActiveReconcileState(job.state)) return { next: 'stop' };
  const task = await deps.store.nextTask(jobId);
  if (!task) return finish(deps, job);

  if (task.kind === 'lookup' && !(await deps.store.hasPending(jobId, task.value!))) {
    // A window read meanwhile found it: no call.
    await deps.store.commitStep(Object.assign(job, { updatedAt: deps.now() }), {
      tasks: [{ ...task, state: 'done' }],
    });
    return { next: 'continue' };
  }
  const page = task.pagesDone + 1;
  const base = task.kind === 'lookup' ? null : taskQuery(job, task);
  if (base) {
    const cached = await deps.cache.getPage(job.account, base.key, 'asc', page);
    if (
      cached &&
      cached.expiresAt > deps.now() &&
      (task.totalFound === null || cached.totalFound === task.totalFound)
    ) {
      await keepPage(answerDeps(deps), job, task, page, cached.body, { source: 'cache', calls: 0 });
      return { next: 'continue' };
    }
  }

  const account = await backgroundAccount(
    deps.vault,
    deps.secretOf,
    job,
    deps.now(),
    msg('reconcile.run.message.secret-unreadable'),
  );
  if (!account) return wait(deps, job, null, { code: 'waiting-sign-in' });
  const held = await waitForQuota(deps, job);
  if (held) return held;
  if (job.state !== 'running')
    await save(deps, job, {
      state: 'running',
      startedAt: job.startedAt ?? deps.now(),
      waitingUntil: null,
      waitingFor: undefined,
      message: null,
    });

  try {
    if (!base) {
      const { cdr, calls } = await deps.gateway.detail(account, task.value!, signal, 'export');
      return await keepAnswer(deps, jobId, (current) => keepLookup(answerDeps(deps), current, task, cdr, calls));
    }
    const { page: body, calls } = await deps.gateway.query(account, { base, page, sortOrder: 'asc' }, 'export', signal);
    const readId = randomUUID();
    return await keepAnswer(deps, jobId, (current) => keepUpstreamPage(deps, current, task, page, body, calls, readId));
  } catch (err) {
    // An unknown trx_id is an answer: the row is not found (the call is spent either way).
    if (!base && err instanceof UpstreamError && err.kind === 'not_found') {
      const calls = Math.max(1, callsSpentBy(err));
      return keepAnswer(deps, jobId, (current) => keepLookup(answerDeps(deps), current, task, null, calls));
    }
    if (signal?.aborted) return { next: 'stop' };
    const current = await deps.store.getJob(jobId);
    if (!current) return { next: 'stop' };
    return handleError(deps, current, err);
  }
}

/**
 * Keeps an answer the upstream sent, from the job as stored now; tried again for up to a minute
 * while the store cannot be written (a database restarting): the call is paid for.
 */
async function keepAnswer(
  deps: StepDeps,
  jobId: string,
  keep: (job: ReconcileJobRecord) => Promise<StepOutcome>,
): Promise<StepOutcome> {
  return whenStoreAnswers(
    async () => {
      const current = await deps.store.getJob(jobId);
      if (!current || !isActiveReconcileState(current.state)) return { next: 'stop' } as const;
      return keep(current);
    },
    {
      maxWaitMs: KEEP_PAGE_WAIT_MS,
      onWait: (err, waitMs) =>
        deps.log.warn('reconcile.page_waits_for_store', {
          job: jobId,
          waitMs,
          error: err instanceof Error ? err.message : String(err),
        }),
    },
  );
}

/** A page the upstream sent: asked for again when it is not whole (twice at most), else kept, then shared with the dashboard's cache. */
async function keepUpstreamPage(
  deps: StepDeps,
  job: ReconcileJobRecord,
  stale: StoredTask,
  page: number,
  body: ResultPage,
  calls: number,
  readId: string,
): Promise<StepOutcome> {
  const task = (await deps.store.tasks(job.id)).find((t) => t.id === stale.id) ?? stale;
  // Kept already: a try whose success the store's answer did not bring back.
  if (task.pagesDone >= page || task.state !== 'pending') return { next: 'continue' };
  const fault = pageFault(body, page, job.pageSize);
  if (fault) {
    if (job.rereadOf === readId) return { next: 'continue' };
    if (job.rereads < MAX_PAGE_REREADS) {
      await save(deps, job, { rereads: job.rereads + 1, callsSpent: job.callsSpent + calls, rereadOf: readId });
      deps.log.info('reconcile.page_reread', { job: job.id, page, reread: job.rereads });
      return { next: 'continue' };
    }
  }
  await keepPage(answerDeps(deps), job, task, page, body, { source: 'upstream', calls, keptAsSent: fault !== null });
  if (fault === null) await shareWithDashboard(deps, job, task, page, body);
  return { next: 'continue' };
}

/** A whole page goes into the dashboard's cache too: a later search (or reconciliation) of it is free. */
async function shareWithDashboard(
  deps: StepDeps,
  job: ReconcileJobRecord,
  task: StoredTask,
  page: number,
  body: ResultPage,
): Promise<void> {
  const base = taskQuery(job, task);
  const fetchedAt = deps.now();
  try {
    await deps.cache.putPage(job.account, {
      queryKey: base.key,
      sortOrder: 'asc',
      page,
      totalFound: body._embedded.total_found,
      body,
      fetchedAt,
      expiresAt: deps.policy.expiresAt(task.to, fetchedAt),
    });
    deps.onSharedPage({ apiKey: job.account, enterpriseId: job.enterpriseId }, base, 'asc', body._embedded.total_found);
  } catch (err) {
    deps.log.warn('reconcile.cache_write_failed', {
      job: job.id,
      error: err instanceof Error ? err.message : String(err),
    });
  }
}
