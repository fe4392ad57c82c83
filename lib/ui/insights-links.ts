/**
 * Where a click on Insights leads: the transactions table, for the same query narrowed to what was
 * clicked — a status, a network, a sender, an API key, a DLR code, a latency bucket, a day or an
 * hour. The transactions page reads the query's own parameters (lib/query/query.ts), so the link
 * is that query written out. Pure.
 */
import type { Filters } from '@/lib/query/filters';
import { QUERY_DEFAULTS, type QuerySelection, type TransactionsQuery } from '@/lib/query/query';
import { parseWallClock } from '@/lib/time/zones';
import { pageHref } from './url-state';

export interface Drill {
  /** Filters to set (an empty string drops one). */
  filters?: Filters;
  /** A day (YYYY-MM-DD) or hour (`YYYY-MM-DD HH:00`) in the query's zone: the range is cut to it. */
  day?: string;
  hour?: string;
}

export function drillHref(query: QuerySelection, drill: Drill): string {
  let from = query.from.getTime();
  let to = query.to.getTime();
  const period = drill.hour ? { start: `${drill.hour}:00`, hours: 1 } : drill.day ? { start: `${drill.day} 00:00:00`, hours: 24 } : null;
  if (period) {
    const start = parseWallClock(period.start, query.tz)?.getTime();
    if (start !== undefined) {
      // The query's range cut to the period; its end is inclusive, whole seconds.
      from = Math.max(from, start);
      to = Math.min(to, start + period.hours * 3_600_000 - 1000);
    }
  }
  const filters = { ...query.filters };
  for (const [param, value] of Object.entries(drill.filters ?? {}) as [keyof Filters, string][]) {
    if (value) filters[param] = value;
    else delete filters[param];
  }
  const next: TransactionsQuery = { ...query, from: new Date(from), to: new Date(to), filters, page: 1, pageSize: QUERY_DEFAULTS.pageSize };
  return pageHref(next);
}

/**
 * The query cut to the days Insights counted (`first` to `last`, days of the query's zone): a
 * drill-down then lists exactly the records the charts counted, and from the local history at no
 * cost — not the unsettled days after them, which would go upstream.
 */
export function countedQuery<Q extends QuerySelection>(query: Q, first: string | null, last: string | null): Q {
  if (!first || !last) return query;
  const start = parseWallClock(`${first} 00:00:00`, query.tz)?.getTime();
  const end = parseWallClock(`${last} 23:59:59`, query.tz)?.getTime();
  if (start === undefined || end === undefined) return query;
  return { ...query, from: new Date(Math.max(query.from.getTime(), start)), to: new Date(Math.min(query.to.getTime(), end)) };
}
