import 'server-only';
/**
 * One step of an export job: read the next page — from the local history when it holds the window
 * (./local-windows.ts), from the dashboard's page cache when it holds the page fresh, else with one
 * background call through the governor — and write it to the store before anything else happens. The runner repeats steps until the job is done or has to wait.
 *
 * Why a step and not a loop over pages: every step starts from the stored job, so a restart, a
 * cancel or a crash between two steps loses nothing and repeats nothing.
 */
import { randomUUID } from 'node:crypto';
import type { Cdr, ResultPage } from '../cdr/schema';
import type { Config } from '../config';
import { QuotaExceededError } from '../governor/server';
import { MAX_PAGE, type SortOrder } from '../query/query';
import type { UpstreamBase } from '../query/wire';
import type { CachePolicy } from '../cache/server';
import { pageFault, reachableRecords } from '../query/ranges';
import { callsSpentBy, type UpstreamAccount, type UpstreamGateway } from '../upstream/server';
import type { ExportJobRecord, StoredWindow } from './job-row';
import { ExportJobCancelledError } from './job-store';
import type { PageCacheStore } from '../cache/server';
import type { VaultEntry, VaultStore } from '../auth/server';
import { isStoreBlocked, whenStoreAnswers } from '../db/unavailable';
import { paidPages } from '../background/server';
import { formatWallClock } from '../time/zones';
import { UpstreamError, isRetryable } from '../upstream/server';
import { backoffMs, MAX_FAILURES } from '../background';
import { storedRows } from './file-writer';
import { finishJob, type FinishDeps } from './finish-job';
import { newWindow, retentionEnd, windowBase, windowLabel } from './job-record';
import { inSortOrder, pagesFor, splitForDepth } from '../query/ranges';
import { LaterWrites } from './later-writes';
import { nothingHeldMessage, readLocalBatch, routeWindow, type LocalReadDeps } from './local-windows';

export interface StepDeps extends FinishDeps {
  cache: PageCacheStore;
  /** The local history: what it holds completely is read from it, with no call. */
  local: LocalReadDeps;
  /** Told after a page was shared with the dashboard's cache (a complete result may go to the local history). */
  onSharedPage(
    account: { apiKey: string; enterpriseId: string | null },
    base: UpstreamBase,
    sortOrder: SortOrder,
    totalFound: number,
  ): void;
  /** The sessions whose secrets renew the upstream token. */
  vault: VaultStore;
  gateway: Pick<UpstreamGateway, 'query' | 'nextCallAt' | 'limits'>;
  config: Pick<Config, 'EXPORT_RETENTION_DAYS'>;
  policy: CachePolicy;
  /** Opens a vault entry's sealed secret; null when it cannot be opened. */
  secretOf(entry: VaultEntry): string | null;
}

/** What the runner does next with the job. */
export type StepOutcome = { next: 'continue' } | { next: 'wait'; until: number | null } | { next: 'stop' };

/** A wait shorter than this is left to the governor's own queue. */
const SHORT_WAIT_MS = 1_000;
/** Times a page that is not whole is asked for again before it is kept as sent. */
const MAX_PAGE_REREADS = 2;

/** How long a page already paid for waits for a store that cannot be written (a database restarting) before it is given up. */
const KEEP_PAGE_WAIT_MS = 60_000;

export const SIGN_IN_MESSAGE =
  'Sign in again to continue: no signed-in session of this API key is left to renew the upstream token with.';

class SignInNeededError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SignInNeededError';
  }
}

function at(ms: number, job: ExportJobRecord): string {
  return `${formatWallClock(new Date(ms), job.query.tz)} ${job.query.tz}`;
}

async function save(deps: StepDeps, job: ExportJobRecord, changes: Partial<ExportJobRecord>): Promise<void> {
  Object.assign(job, changes, { updatedAt: deps.now() });
  await deps.store.saveJob(job);
}

async function wait(
  deps: StepDeps,
  job: ExportJobRecord,
  until: number | null,
  message: string,
  waitingFor?: 'quota',
): Promise<StepOutcome> {
  await save(deps, job, { state: 'waiting', waitingUntil: until, message, waitingFor });
  return { next: 'wait', until };
}

async function fail(deps: StepDeps, job: ExportJobRecord, message: string): Promise<StepOutcome> {
  const now = deps.now();
  await save(deps, job, {
    state: 'failed',
    message,
    waitingUntil: null,
    finishedAt: now,
    expiresAt: retentionEnd(now, deps.config),
  });
  await deps.store.deleteRows(job.id);
  deps.log.warn('export.failed', { job: job.id, account: job.account, reason: message });
  return { next: 'stop' };
}

/** The account to call the upstream as, renewing its token with a live session's secret. */
async function accountFor(deps: StepDeps, job: ExportJobRecord): Promise<UpstreamAccount | null> {
  const entry = await deps.vault.liveSession(job.account, deps.now(), {
    preferSid: job.sid,
    createdAfter: job.signInNeededSince,
  });
  if (!entry) return null;
  return {
    apiKey: job.account,
    enterpriseId: job.enterpriseId,
    credentials: async () => {
      const secret = deps.secretOf(entry);
      if (secret === null)
        throw new SignInNeededError(
          'The stored secret cannot be opened (the server secret changed?); sign in again to continue.',
        );
      return { apiKey: job.account, secret };
    },
  };
}

/** Puts a fetched page (a whole one: see keepPage) into the dashboard's cache too, with the lifetime the dashboard gives it. */
async function shareWithDashboard(
  deps: StepDeps,
  job: ExportJobRecord,
  w: StoredWindow,
  key: string,
  page: number,
  body: ResultPage,
  fetchedAt: number,
): Promise<void> {
  const expiresAt = deps.policy.expiresAt(w.to, fetchedAt);
  // Its records are indexed by trx_id once the export is done (index-shared-pages.ts).
  await deps.cache.putPage(
    job.account,
    {
      queryKey: key,
      sortOrder: job.query.sortOrder,
      page,
      totalFound: body._embedded.total_found,
      body,
      fetchedAt,
      expiresAt,
    },
    { indexRecords: false },
  );
  deps.onSharedPage(
    { apiKey: job.account, enterpriseId: job.enterpriseId },
    windowBase(job, w),
    job.query.sortOrder,
    body._embedded.total_found,
  );
}

/** Learns a window's size from its first page; splits it when it is deeper than the upstream reaches. */
function learnTotal(job: ExportJobRecord, w: StoredWindow, total: number): void {
  const reach = reachableRecords(job.pageSize);
  if (w.totalFound === null) {
    w.totalFound = total;
    w.pagesTotal = pagesFor(total, job.pageSize, MAX_PAGE);
    if (total <= reach) return;
    const parts = splitForDepth(w, total, reach);
    if (parts && parts.length > 1) {
      w.state = 'split';
      const children = inSortOrder(parts, job.query.sortOrder).map((r) => newWindow(job, r));
      job.windows.splice(job.windows.indexOf(w) + 1, 0, ...children);
      job.warnings.push(
        `Window ${windowLabel(w, job.query.tz)} holds ${total.toLocaleString('en-US')} records, more than the upstream's ${MAX_PAGE} pages of ${job.pageSize}: it is read as ${children.length} narrower windows.`,
      );
    } else {
      job.warnings.push(
        `Window ${windowLabel(w, job.query.tz)} holds ${total.toLocaleString('en-US')} records in too short a span to split: only the first ${reach.toLocaleString('en-US')} can be read.`,
      );
    }
  } else if (total !== w.totalFound) {
    job.warnings.push(
      `Window ${windowLabel(w, job.query.tz)}: the upstream's count changed from ${w.totalFound.toLocaleString('en-US')} to ${total.toLocaleString('en-US')} while the export ran.`,
    );
    w.totalFound = total;
    w.pagesTotal = pagesFor(total, job.pageSize, MAX_PAGE);
  }
}

const pageRead = (body: ResultPage) => ({ cdrs: body._embedded.cdrs, totalFound: body._embedded.total_found });

/** Writes a page (or a batch of the local history) and the job's progress in one transaction. */
/** `calls`: the query calls an upstream page took (0 for the others, and when another request's call was shared). */
async function commit(
  deps: StepDeps,
  job: ExportJobRecord,
  windowId: number,
  page: number,
  read: { cdrs: Cdr[]; totalFound: number },
  source: 'cache' | 'upstream' | 'local',
  calls = 0,
): Promise<void> {
  const w = job.windows.find((x) => x.id === windowId) as StoredWindow;
  const { cdrs } = read;
  learnTotal(job, w, read.totalFound);
  const rows = storedRows(job, cdrs);
  await deps.store.commitPage(job, w.id, rows, (r) => {
    job.recordsFetched += r.inserted;
    job.callsSpent += calls;
    if (source === 'cache') job.pagesCached += 1;
    else if (source === 'local') job.localRecords = (job.localRecords ?? 0) + r.inserted;
    // A split window's first page only seeds the file; its narrower windows are counted instead.
    if (w.state !== 'split') {
      w.received += cdrs.length;
      w.pagesDone = page;
      job.duplicates += r.sameWindow + r.otherWindow;
      job.overlapDuplicates += r.otherWindow;
      const ended = w.pagesDone >= (w.pagesTotal ?? 0);
      if (!ended && cdrs.length === 0) {
        job.warnings.push(
          `Window ${windowLabel(w, job.query.tz)}: the upstream sent an empty page ${page} of ${w.pagesTotal}; the window ends there.`,
        );
      }
      if (ended || cdrs.length === 0) w.state = 'done';
    }
    Object.assign(job, {
      state: 'running',
      failures: 0,
      rereads: 0,
      waitingUntil: null,
      waitingFor: undefined,
      message: null,
      updatedAt: deps.now(),
    });
  });
}

async function handleError(deps: StepDeps, job: ExportJobRecord, err: unknown): Promise<StepOutcome> {
  const now = deps.now();
  if (err instanceof SignInNeededError) {
    // This session's secret is of no use: only a session signed in from now on can help.
    job.signInNeededSince = now;
    return wait(deps, job, null, err.message);
  }
  if (err instanceof QuotaExceededError) {
    // The upstream's own hold (a 429's Retry-After) is kept as it is; the governor's guess is asked again.
    return wait(
      deps,
      job,
      err.nextCallAt,
      `Waiting for quota: ${err.message}`,
      err.limitedBy === 'upstream' ? undefined : 'quota',
    );
  }
  if (err instanceof UpstreamError) {
    // The calls sent count against the windows even though they failed (none when the token
    // could not be had).
    job.callsSpent += callsSpentBy(err);
    if (err.kind === 'unauthorized') {
      job.signInNeededSince = now;
      return wait(deps, job, null, 'The Report API refused the stored credentials: sign in again to continue.');
    }
    if (isRetryable(err) || err.kind === 'malformed') {
      const failures = job.failures + 1;
      if (failures > MAX_FAILURES) {
        return fail(
          deps,
          job,
          `The Report API failed ${failures} times in a row (${err.kind.replace('_', ' ')}); the export stopped. Start it again later: pages already read are not read again.`,
        );
      }
      const until = now + Math.max(backoffMs(failures), err.retryAfterMs ?? 0);
      job.failures = failures;
      deps.log.info('export.retry', { job: job.id, account: job.account, error: err.kind, failures });
      return wait(
        deps,
        job,
        until,
        `The Report API failed (${err.kind.replace('_', ' ')}); trying again at ${at(until, job)} (attempt ${failures + 1} of ${MAX_FAILURES + 1}).`,
      );
    }
    const said = err.upstreamMessage ? ` The Report API said: \u201c${err.upstreamMessage}\u201d.` : '';
    return fail(
      deps,
      job,
      `The Report API refused the query (${err.status ?? err.kind}); the export cannot continue.${said}`,
    );
  }
  deps.log.error('export.unexpected', {
    job: job.id,
    account: job.account,
    error: err instanceof Error ? err.message : String(err),
  });
  return fail(deps, job, 'An unexpected error stopped the export; it was logged. Start the export again.');
}

/**
 * Runs one step of job `jobId`. `signal` aborts a call in flight (cancel, shutdown). `later` holds
 * what a step may leave to the next one (the dashboard's copy of a fetched page, written while the
 * next call is in flight); the runner keeps one per job. Without it, nothing is left for later.
 */
export async function runJobStep(
  deps: StepDeps,
  jobId: string,
  signal?: AbortSignal,
  later?: LaterWrites,
): Promise<StepOutcome> {
  const writes = later ?? new LaterWrites();
  // Cancelled while this step ran: what it read is not written, and it stops.
  const outcome = await step(deps, jobId, writes, signal).catch((err: unknown) => {
    if (err instanceof ExportJobCancelledError) return { next: 'stop' } as const;
    throw err;
  });
  // Only a step that goes straight on to the next call leaves writes behind.
  if (outcome.next !== 'continue' || !later) await writes.flush();
  return outcome;
}

async function step(
  deps: StepDeps,
  jobId: string,
  later: LaterWrites,
  signal: AbortSignal | undefined,
): Promise<StepOutcome> {
  const job = await deps.store.getJob(jobId);
  if (!job || (job.state !== 'queued' && job.state !== 'running' && job.state !== 'waiting')) return { next: 'stop' };
  const w = job.windows.find((x) => x.state === 'pending');
  if (!w) {
    // The dashboard's copies of the last pages before the file, as before any other step's end.
    await later.flush();
    await finishJob(deps, job, signal);
    return { next: 'stop' };
  }
  const route = await routeWindow(deps.local, job, w);
  if (route === 'empty') return fail(deps, job, nothingHeldMessage(job));
  if (route === 'replaced') {
    await save(deps, job, {});
    return { next: 'continue' };
  }
  if (route === 'local') {
    const cdrs = await readLocalBatch(deps.local, job, w);
    await commit(deps, job, w.id, w.pagesDone + 1, { cdrs, totalFound: w.totalFound ?? 0 }, 'local');
    return { next: 'continue' };
  }

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

/** A page read from the upstream, to be kept (keepPage). */
interface ReadPage {
  jobId: string;
  w: StoredWindow;
  page: number;
  key: string;
  body: ResultPage;
  calls: number;
  fetchedAt: number;
  /** This answer's own id (two answers may come in the same millisecond). */
  readId: string;
}

/** Keeps a page the upstream sent, from the job as it is stored now (see step). */
async function keepPage(
  deps: StepDeps,
  read: ReadPage,
  later: LaterWrites,
  signal: AbortSignal | undefined,
): Promise<StepOutcome> {
  const { jobId, w, page, key, body, calls, fetchedAt, readId } = read;
  // Cancelled while the call was in flight: the call is spent, the page is not wanted. Stopped
  // (the server shuts down) while it was: the page is paid for, so it is stored before the step ends.
  const current = await deps.store.getJob(jobId);
  if (!current || current.state === 'cancelled') return { next: 'stop' };
  // Kept already: a try whose success the store's answer did not bring back.
  if ((current.windows.find((x) => x.id === w.id)?.pagesDone ?? 0) >= page) return { next: 'continue' };
  // A page that is not whole (short of its own count, a record twice) is asked for again before it
  // is kept as sent: one more call, where an incomplete file would cost the whole export again.
  const fault = pageFault(body, page, current.pageSize);
  if (fault) {
    // Counted already: the store wrote this very answer's reread, and its reply was lost on the way back.
    if (current.rereadOf === readId) return signal?.aborted ? { next: 'stop' } : { next: 'continue' };
    const rereads = current.rereads ?? 0;
    if (rereads < MAX_PAGE_REREADS) {
      await save(deps, current, { rereads: rereads + 1, callsSpent: current.callsSpent + calls, rereadOf: readId });
      deps.log.info('export.page_reread', { job: jobId, account: current.account, page, reread: rereads + 1 });
      return signal?.aborted ? { next: 'stop' } : { next: 'continue' };
    }
    current.warnings.push(
      `Window ${windowLabel(w, current.query.tz)}: ${fault}, asked ${MAX_PAGE_REREADS + 1} times; kept as sent.`,
    );
  }
  // The export's own record first, before the next call: a crash after it never pays for this
  // page again. The dashboard's copy after it (during the next call, or when the step ends here),
  // so a crash in between cannot make the page look free on resume.
  await commit(deps, current, w.id, page, pageRead(body), 'upstream', calls);
  // A page short of its count or with a record twice is the export's (its count check says so),
  // not the dashboard's to serve as the whole result.
  if (fault === null) {
    later.add(() =>
      shareWithDashboard(deps, current, w, key, page, body, fetchedAt).catch((err: unknown) =>
        deps.log.warn('export.cache_write_failed', {
          job: jobId,
          error: err instanceof Error ? err.message : String(err),
        }),
      ),
    );
  }
  return signal?.aborted ? { next: 'stop' } : { next: 'continue' };
}
