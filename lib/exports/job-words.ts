/**
 * How an export job reads on the exports page and in the button's dialog. Browser-safe and pure
 * (the clock is passed in), so the words are tested once and shown the same everywhere.
 */
import { FILTERS } from '../query/filters';
import { selectionOfBody } from '../query/query';
import { formatWallMinute, type Zone } from '../time/zones';
import { describeSpan } from './describe';
import type { ExportJob } from './api';

function clock(iso: string, tz: Zone): string {
  return `${formatWallMinute(new Date(iso), tz)} ${tz}`;
}

/** "Queued", "Running", "Waiting for quota until 2026-11-20 14:30 JST", "Done", … */
export function stateText(job: ExportJob): string {
  switch (job.state) {
    case 'queued':
      return job.schedule && job.schedule.callsAhead > 0 ? 'Queued behind earlier exports' : 'Queued';
    case 'running':
      return 'Running';
    case 'waiting':
      return job.waitingUntil
        ? `Waiting for quota until ${clock(job.waitingUntil, job.query.tz)}`
        : 'Waiting for a sign-in';
    case 'done':
      return 'Done';
    case 'failed':
      return 'Failed';
    case 'cancelled':
      return 'Cancelled';
  }
}

/** Share of the expected records fetched, 0–100; null while no size is known. */
export function progressPercent(job: ExportJob): number | null {
  if (job.state === 'done') return 100;
  const total = job.progress.totalExpected;
  if (total === null) return null;
  if (total === 0) return 0;
  return Math.min(100, Math.floor((100 * job.progress.recordsFetched) / total));
}

/** "1,234 of 5,000 records" (or "1,234 records so far" while the total is unknown). */
export function progressText(job: ExportJob): string {
  const fetched = job.progress.recordsFetched.toLocaleString('en-US');
  const total = job.progress.totalExpected;
  if (job.state === 'done') return `${fetched} records`;
  return total === null ? `${fetched} records so far` : `${fetched} of ${total.toLocaleString('en-US')} records`;
}

/** "about 2 h (by 2026-11-20 14:30 JST)", "any moment", or null when nothing is left to estimate. */
export function etaText(job: ExportJob, nowMs: number): string | null {
  const s = job.schedule;
  if (!s) return null;
  if (s.finishAt === null) return 'never at the current limits';
  const left = Date.parse(s.finishAt) - nowMs;
  if (left < 60_000) return 'any moment';
  const unknown = job.progress.windows.some((w) => w.totalFound === null) ? 'at least ' : '';
  return `${unknown}${describeSpan(left)} (by ${clock(s.finishAt, job.query.tz)})`;
}

/** "2026-11-01 00:00 – 2026-11-08 00:00 JST · status DELIVRD · newest first". */
export function queryText(job: ExportJob): string {
  const q = selectionOfBody(job.query);
  // Never for a job this dashboard answered (it wrote the body from a parsed query): its range as sent.
  if (!q) return `${job.query['date-from']} \u2013 ${job.query['date-to']} ${job.query.tz}`;
  const parts = [`${formatWallMinute(q.from, q.tz)} \u2013 ${formatWallMinute(q.to, q.tz)} ${q.tz}`];
  for (const def of FILTERS) {
    const v = q.filters[def.param];
    if (v) parts.push(`${def.label} ${v}`);
  }
  parts.push(q.sortOrder === 'desc' ? 'newest first' : 'oldest first');
  return parts.join(' \u00b7 ');
}

/** "12.3 MB". */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
