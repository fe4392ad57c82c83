/**
 * A stored job as the API answers it: wall-clock times in the job's zone for the query and
 * windows, ISO instants for the job's own times, links to itself and (when done) to its file.
 */
import type { ExportJobRecord } from './job-row';
import { queryBody } from '../query/query';
import { requestedEndOf, selectionOf } from '../query/stored';
import { formatWallClock } from '../time/zones';
import { leafWindows } from './job-record';
import type { ExportJob, ExportSchedule } from './api';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export function exportHref(id: string): string {
  return `/api/exports/${encodeURIComponent(id)}`;
}

export function presentJob(job: ExportJobRecord, schedule: ExportSchedule | null): ExportJob {
  const tz = job.query.tz;
  const wall = (ms: number) => formatWallClock(new Date(ms), tz);
  const leaves = leafWindows(job);
  const known = leaves.filter((w) => w.totalFound !== null);
  const self = exportHref(job.id);
  const requestedEnd = requestedEndOf(job.query);
  return {
    id: job.id,
    state: job.state,
    createdAt: new Date(job.createdAt).toISOString(),
    updatedAt: new Date(job.updatedAt).toISOString(),
    finishedAt: iso(job.finishedAt),
    expiresAt: iso(job.expiresAt),
    query: queryBody(selectionOf(job.query)),
    requestedDateTo: requestedEnd === null ? null : formatWallClock(requestedEnd, tz),
    columns: job.columns,
    excel: job.excel === true,
    fileName: job.fileName,
    progress: {
      recordsFetched: job.countCheck?.written ?? job.recordsFetched,
      totalExpected: known.length === 0 ? null : known.reduce((sum, w) => sum + (w.totalFound ?? 0), 0),
      callsSpent: job.callsSpent,
      pagesCached: job.pagesCached,
      recordsFromHistory: job.localRecords ?? 0,
      windows: leaves.map((w) => ({
        dateFrom: wall(w.from),
        dateTo: wall(w.to),
        totalFound: w.totalFound,
        pagesDone: w.pagesDone,
        pagesTotal: w.pagesTotal,
        state: w.state === 'done' ? 'done' : w.pagesDone > 0 ? 'running' : 'pending',
      })),
    },
    waitingUntil: job.state === 'waiting' ? iso(job.waitingUntil) : null,
    message: job.message,
    warnings: job.warnings,
    countCheck: job.countCheck,
    fileBytes: job.fileBytes,
    schedule,
    _links: { self: { href: self }, ...(job.state === 'done' ? { file: { href: `${self}/file` } } : {}) },
  };
}
