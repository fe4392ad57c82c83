/**
 * Where a click on Insights leads: the transactions table, for the same query narrowed to what was
 * clicked — a status, a network, a sender, an API key, a DLR code, a latency bucket, a day or an
 * hour. The transactions page reads the query's own parameters (lib/query/query.ts), so the link
 * is that query written out. Pure.
 */
import type { Filters } from '../query/filters';
import { QUERY_DEFAULTS, type QuerySelection, type TransactionsQuery } from '../query/query';
import { parseWallClock } from '../time/zones';
import { pageHref } from '../query/page-url';

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
  const period = drill.hour
    ? { start: `${drill.hour}:00`, hours: 1 }
    : drill.day
      ? { start: `${drill.day} 00:00:00`, hours: 24 }
      : null;
  if (period) {
    const start = parseWallClock(period.start, query.tz)?.getTime();
    if (start !== undefined) {
      // The query's range cut to the period. Its end is the next period's first instant: the range's
      // end is inclusive to the second while records carry milliseconds, so ending at :59:59 would
      // leave out the records of the period's last second (the next period's .000 instant is in).
      from = Math.max(from, start);
      to = Math.min(to, start + period.hours * 3_600_000);
    }
  }
  const filters = { ...query.filters };
  for (const [param, value] of Object.entries(drill.filters ?? {}) as [keyof Filters, string][]) {
    if (value) filters[param] = value;
    else delete filters[param];
  }
  const next: TransactionsQuery = {
    ...query,
    from: new Date(from),
    to: new Date(to),
    filters,
    page: 1,
    pageSize: QUERY_DEFAULTS.pageSize,
  };
  return pageHref(next);
}

/** The newest days counted one after another (days of the query's zone, in order), and whether they are all the counted days. */
export function countedRun(
  days: readonly { day: string; state: string }[],
): { first: string; last: string; all: boolean } | null {
  const counted = (i: number) => days[i]?.state === 'complete';
  let last = days.length - 1;
  while (last >= 0 && !counted(last)) last -= 1;
  if (last < 0) return null;
  let first = last;
  while (first > 0 && counted(first - 1)) first -= 1;
  const all = days.slice(0, first).every((d) => d.state !== 'complete');
  return { first: days[first]!.day, last: days[last]!.day, all };
}

/**
 * The query cut to counted days (`run`, of the query's zone): a drill-down of the whole range then
 * lists records the charts counted, from the local history at no cost — not the unsettled or
 * missing days beside them, which would go upstream. Counted days with a gap between them cannot
 * be one range: the newest run is taken (the page says so).
 */
export function countedQuery<Q extends QuerySelection>(query: Q, run: { first: string; last: string } | null): Q {
  if (!run) return query;
  const start = parseWallClock(`${run.first} 00:00:00`, query.tz)?.getTime();
  const lastStart = parseWallClock(`${run.last} 00:00:00`, query.tz)?.getTime();
  if (start === undefined || lastStart === undefined) return query;
  // To the next day's first instant, as drillHref cuts a day.
  const end = lastStart + 24 * 3_600_000;
  return {
    ...query,
    from: new Date(Math.max(query.from.getTime(), start)),
    to: new Date(Math.min(query.to.getTime(), end)),
  };
}
