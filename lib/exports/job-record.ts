/**
 * Building a job from a request, and reading what is left of it. Pure: no store, no clock.
 */
import { msg } from '../i18n/message';
import type { CdrFieldKey } from '../cdr/fields';
import { SEARCH_MAX_RANGE_DAYS } from '../query/query';
import { storedQueryOf } from '../query/stored';
import { upstreamBase, type UpstreamBase } from '../query/wire';
import type { ExportJobRecord, StoredWindow } from './job-row';
import { formatWallClock, type Zone } from '../time/zones';
import type { FrozenQuery } from './export-request';
import { csvFileName } from '../csv/file-name';
import { DAY_MS } from '../time/units';
import { inSortOrder, splitRange, type TimeRange } from '../query/ranges';

export interface NewJobInput {
  id: string;
  account: { apiKey: string; sid: string; enterpriseId: string | null };
  frozen: FrozenQuery;
  columns: CdrFieldKey[];
  /** The file is written for Excel (lib/csv/csv-format.ts). */
  excel?: boolean;
  pageSize: number;
  now: number;
}

/** When a finished (done, failed or cancelled) job and its file are deleted: the one retention rule. */
export function retentionEnd(finishedAt: number, config: { EXPORT_RETENTION_DAYS: number }): number {
  return finishedAt + config.EXPORT_RETENTION_DAYS * DAY_MS;
}

export function newWindow(job: Pick<ExportJobRecord, 'nextWindowId'>, range: TimeRange): StoredWindow {
  const id = job.nextWindowId;
  job.nextWindowId += 1;
  return {
    id,
    from: range.from,
    to: range.to,
    state: 'pending',
    totalFound: null,
    pagesDone: 0,
    pagesTotal: null,
    received: 0,
  };
}

export function createJobRecord(input: NewJobInput): ExportJobRecord {
  const q = input.frozen.query;
  const job: ExportJobRecord = {
    id: input.id,
    account: input.account.apiKey,
    sid: input.account.sid,
    enterpriseId: input.account.enterpriseId,
    state: 'queued',
    createdAt: input.now,
    updatedAt: input.now,
    finishedAt: null,
    expiresAt: null,
    query: storedQueryOf(q, input.frozen.requestedTo),
    columns: input.columns,
    ...(input.excel ? { excel: true } : {}),
    rowFormat: 'csv-line',
    fileName: csvFileName(q),
    pageSize: input.pageSize,
    windows: [],
    nextWindowId: 1,
    waitingUntil: null,
    message: null,
    warnings: [],
    callsSpent: 0,
    pagesCached: 0,
    recordsFetched: 0,
    duplicates: 0,
    overlapDuplicates: 0,
    failures: 0,
    signInNeededSince: null,
    countCheck: null,
    fileBytes: null,
  };
  const ranges = inSortOrder(splitRange(job.query.from, job.query.to), q.sortOrder);
  job.windows = ranges.map((r) => newWindow(job, r));
  if (ranges.length > 1) {
    job.warnings.push(msg('exports.warning.longRange', { days: SEARCH_MAX_RANGE_DAYS, windows: ranges.length }));
  }
  if (input.frozen.requestedTo) {
    job.warnings.push(msg('exports.warning.future', { at: `${formatWallClock(q.to, q.tz)} ${q.tz}` }));
  }
  return job;
}

/** The upstream query of a window, without page and sort (its key is what the page cache is keyed by). */
export function windowBase(
  job: Pick<ExportJobRecord, 'query' | 'enterpriseId' | 'pageSize'>,
  w: TimeRange,
): UpstreamBase {
  return upstreamBase(
    { from: new Date(w.from), to: new Date(w.to), filters: job.query.filters },
    { enterpriseId: job.enterpriseId, pageSize: job.pageSize },
  );
}

export function windowLabel(w: TimeRange, tz: Zone): string {
  return `${formatWallClock(new Date(w.from), tz)} \u2013 ${formatWallClock(new Date(w.to), tz)} ${tz}`;
}

/** Windows that count towards the file (split ones were replaced by narrower ones). */
export function leafWindows(job: Pick<ExportJobRecord, 'windows'>): StoredWindow[] {
  return job.windows.filter((w) => w.state !== 'split');
}

/**
 * Upstream calls the job still needs, at most: pages not read of the windows whose size is known,
 * one per window not yet opened (the first page tells the rest). Cached pages may make it less.
 */
export function remainingCalls(job: Pick<ExportJobRecord, 'windows'>): { calls: number; windowsUnknown: number } {
  let calls = 0;
  let windowsUnknown = 0;
  for (const w of leafWindows(job)) {
    if (w.state === 'done' || w.local) continue;
    if (w.pagesTotal === null) {
      calls += 1;
      windowsUnknown += 1;
    } else calls += Math.max(0, w.pagesTotal - w.pagesDone);
  }
  return { calls, windowsUnknown };
}
