import 'server-only';
/**
 * Storing what a step read — an upstream page, a cached one or a batch of the local history — with
 * the job's progress in one transaction, before anything else happens: a restart, a cancel or a
 * crash after it loses nothing and repeats nothing. A window's first page tells its size; one
 * deeper than the upstream reaches is replaced by narrower windows.
 */
import { msg } from '../i18n/message';
import type { Cdr, ResultPage } from '../cdr/schema';
import { MAX_PAGE } from '../query/query';
import { inSortOrder, pagesFor, reachableRecords, splitForDepth } from '../query/ranges';
import type { ExportJobRecord, StoredWindow } from './job-row';
import { newWindow, windowLabel } from './job-record';
import { storedRows } from './file-writer';
import type { StepDeps } from './step-deps';

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
        msg('exports.warning.split', {
          window: windowLabel(w, job.query.tz),
          total,
          pages: MAX_PAGE,
          size: job.pageSize,
          parts: children.length,
        }),
      );
    } else {
      job.warnings.push(msg('exports.warning.cannotSplit', { window: windowLabel(w, job.query.tz), total, reach }));
    }
  } else if (total !== w.totalFound) {
    job.warnings.push(
      msg('exports.warning.countChanged', { window: windowLabel(w, job.query.tz), from: w.totalFound, to: total }),
    );
    w.totalFound = total;
    w.pagesTotal = pagesFor(total, job.pageSize, MAX_PAGE);
  }
}

/** What a page of the upstream (or the cache) brings: its records and the window's count. */
export const pageRead = (body: ResultPage) => ({ cdrs: body._embedded.cdrs, totalFound: body._embedded.total_found });

/**
 * Writes a page (or a batch of the local history) and the job's progress in one transaction.
 * `calls`: the query calls an upstream page took (0 for the others, and when another request's call was shared). */
export async function commit(
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
          msg('exports.warning.emptyPage', { window: windowLabel(w, job.query.tz), page, pages: w.pagesTotal ?? 0 }),
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
