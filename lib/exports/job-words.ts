/**
 * How an export job reads on the exports page and in the button's dialog: Words by key
 * (messages/<locale>/exports.json), said in the page's language by the component. Browser-safe and
 * pure (the clock is passed in), so the words are tested once and shown the same everywhere. The
 * times are written as the reader's language writes them, in the job's zone.
 */
import type { Locale } from '../i18n/locales';
import { msg, type Message } from '../i18n/message';
import { FILTERS } from '../query/filters';
import { selectionOfBody } from '../query/query';
import { formatWallMinute, type Zone } from '../time/zones';
import { describeSpan } from './describe';
import type { ExportJob } from './api';

/** `2026-11-20 14:30 JST`; `2026/11/20 14:30 JST` in Japanese. */
export function clock(instant: Date | string, tz: Zone, locale: Locale = 'en'): string {
  const wall = formatWallMinute(typeof instant === 'string' ? new Date(instant) : instant, tz);
  return `${locale === 'ja' ? wall.replace(/^(\d{4})-(\d{2})-(\d{2})/, '$1/$2/$3') : wall} ${tz}`;
}

/** "Queued", "Running", "Waiting for quota until 2026-11-20 14:30 JST", "Done", … */
export function stateText(job: ExportJob, locale: Locale = 'en'): Message {
  switch (job.state) {
    case 'queued':
      return msg(job.schedule && job.schedule.callsAhead > 0 ? 'exports.state.queuedBehind' : 'exports.state.queued');
    case 'running':
      return msg('exports.state.running');
    case 'waiting':
      return job.waitingUntil
        ? msg('exports.state.waitingUntil', { at: clock(job.waitingUntil, job.query.tz, locale) })
        : msg('exports.state.waitingSignIn');
    case 'done':
      return msg('exports.state.done');
    case 'failed':
      return msg('exports.state.failed');
    case 'cancelled':
      return msg('exports.state.cancelled');
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
export function progressText(job: ExportJob): Message {
  const fetched = job.progress.recordsFetched;
  const total = job.progress.totalExpected;
  if (job.state === 'done') return msg('exports.progress.done', { fetched });
  return total === null ? msg('exports.progress.soFar', { fetched }) : msg('exports.progress.of', { fetched, total });
}

/** "about 2 h (by 2026-11-20 14:30 JST)", "any moment", or null when nothing is left to estimate. */
export function etaText(job: ExportJob, nowMs: number, locale: Locale = 'en'): Message | null {
  const s = job.schedule;
  if (!s) return null;
  if (s.finishAt === null) return msg('exports.eta.never');
  const left = Date.parse(s.finishAt) - nowMs;
  if (left < 60_000) return msg('exports.eta.anyMoment');
  return msg('exports.eta.by', {
    atLeast: job.progress.windows.some((w) => w.totalFound === null) ? 'yes' : 'no',
    span: describeSpan(left),
    at: clock(s.finishAt, job.query.tz, locale),
  });
}

/**
 * "2026-11-01 00:00 – 2026-11-08 00:00 JST", "Status DELIVRD", "newest first": the parts a card's
 * title joins with " · ".
 */
export function queryText(job: ExportJob, locale: Locale = 'en'): Message[] {
  const q = selectionOfBody(job.query);
  // Never for a job this dashboard answered (it wrote the body from a parsed query): its range as sent.
  if (!q)
    return [msg('exports.query.range', { from: job.query['date-from'], to: job.query['date-to'], tz: job.query.tz })];
  const parts = [
    msg('exports.query.range', {
      from: clock(q.from, q.tz, locale).slice(0, -4),
      to: clock(q.to, q.tz, locale).slice(0, -4),
      tz: q.tz,
    }),
  ];
  for (const def of FILTERS) {
    const v = q.filters[def.param];
    if (v) parts.push(msg('exports.query.filter', { label: msg(`fields.filter.${def.param}.label`), value: v }));
  }
  parts.push(msg('exports.query.order', { order: q.sortOrder }));
  return parts;
}

/** "12.3 MB". */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
