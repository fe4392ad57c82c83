/**
 * A file name that says what is in the file: range, zone, filters (and the page for a one-page
 * download), e.g. `sms-2026-11-01T0000-2026-11-08T0000-JST-status-DELIVRD-p2.csv`. Only characters
 * that are safe in every file system and in a Content-Disposition header.
 */
import { FILTERS } from '../query/filters';
import { wallClocks, type QuerySelection } from '../query/query';

function safe(part: string): string {
  return part.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 40);
}

function stamp(wallClock: string): string {
  // `2026-11-01 00:00:00` → `2026-11-01T0000` (seconds only when they are not zero).
  const [date, time = ''] = wallClock.split(' ');
  const [h = '00', m = '00', s = '00'] = time.split(':');
  return `${date}T${h}${m}${s === '00' ? '' : s}`;
}

export function csvFileName(query: Pick<QuerySelection, 'from' | 'to' | 'tz' | 'filters'>, opts: { page?: number } = {}): string {
  const { dateFrom, dateTo } = wallClocks(query);
  const parts = ['sms', stamp(dateFrom), stamp(dateTo), query.tz];
  for (const def of FILTERS) {
    const v = query.filters[def.param];
    if (v) parts.push(`${def.param}-${safe(v)}`);
  }
  if (opts.page !== undefined) parts.push(`p${opts.page}`);
  return `${parts.join('_')}.csv`;
}
