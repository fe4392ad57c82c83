import 'server-only';
/**
 * A page the upstream sent is paid for: it is stored (store-page.ts) before the next call, from the
 * job as it is stored then, unless the job was cancelled meanwhile. A page that is not whole
 * (short of its own count, a record twice) is asked for again before it is kept as sent; a whole
 * one is given to the dashboard's cache too, after the export's own record, while the next call is
 * in flight (later-writes.ts).
 */
import { msg } from '../i18n/message';
import type { ResultPage } from '../cdr/schema';
import { pageFault } from '../query/ranges';
import type { ExportJobRecord, StoredWindow } from './job-row';
import { windowBase, windowLabel } from './job-record';
import type { LaterWrites } from './later-writes';
import { save } from './job-state';
import { commit, pageRead } from './store-page';
import type { StepDeps, StepOutcome } from './step-deps';

/** Times a page that is not whole is asked for again before it is kept as sent. */
const MAX_PAGE_REREADS = 2;

/** A page read from the upstream, to be kept (keepPage). */
export interface ReadPage {
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
export async function keepPage(
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
      msg('exports.warning.reread', { window: windowLabel(w, current.query.tz), fault, times: MAX_PAGE_REREADS + 1 }),
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
