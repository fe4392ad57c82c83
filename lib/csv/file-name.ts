/**
 * A file name that says what is in the file: range, zone, filters (and the page for a one-page
 * download), e.g. `sms_2026-11-01T0000_2026-11-08T0000_JST_status-DELIVRD_p2.csv`. Letters and
 * digits of any script are kept (free text in Japanese names the file by it); anything else a file
 * system could choke on becomes `_`. A download names it through lib/http/content-disposition.ts.
 */
import { FILTERS } from '../query/filters';
import { wallClocks, type QuerySelection } from '../query/query';

function safe(part: string): string {
  return [
    ...part
      .normalize('NFC')
      .replace(/[^\p{L}\p{N}._-]+/gu, '_')
      .replace(/^_+|_+$/g, ''),
  ]
    .slice(0, 40)
    .join('');
}

function stamp(wallClock: string): string {
  // `2026-11-01 00:00:00` → `2026-11-01T0000` (seconds only when they are not zero).
  const [date, time = ''] = wallClock.split(' ');
  const [h = '00', m = '00', s = '00'] = time.split(':');
  return `${date}T${h}${m}${s === '00' ? '' : s}`;
}

export function csvFileName(
  query: Pick<QuerySelection, 'from' | 'to' | 'tz' | 'filters'>,
  opts: { page?: number } = {},
): string {
  const { dateFrom, dateTo } = wallClocks(query);
  const parts = ['sms', stamp(dateFrom), stamp(dateTo), query.tz];
  for (const def of FILTERS) {
    const v = query.filters[def.param];
    if (v) parts.push(`${def.param}-${safe(v)}`);
  }
  if (opts.page !== undefined) parts.push(`p${opts.page}`);
  return `${parts.join('_')}.csv`;
}
