/**
 * How a dashboard page maps onto upstream pages. The upstream is always read in UTC at its largest
 * page size, so one cached upstream page serves every dashboard page size (10/25/50/100), both
 * zones, and — once a range is settled — both sort orders.
 */
import { formatWallClock } from '../time/zones';
import { MAX_PAGE, type TransactionsQuery } from '../query/transactions-query';
import type { UpstreamQuery } from '../upstream/query';

export type UpstreamBase = Omit<UpstreamQuery, 'page' | 'sortOrder'>;

/** The upstream query for a dashboard query, without page and sort (those vary per call). */
export function upstreamBase(query: TransactionsQuery, defaultEnterpriseId: string | null, upstreamPageSize: number): UpstreamBase {
  const f = query.filters;
  const base: UpstreamBase = {
    dateFrom: formatWallClock(query.from, 'UTC'),
    dateTo: formatWallClock(query.to, 'UTC'),
    pageSize: upstreamPageSize,
    tz: 'UTC',
  };
  const enterpriseId = f['enterprise-id'] ?? defaultEnterpriseId ?? undefined;
  if (enterpriseId) base.enterpriseId = enterpriseId;
  if (f['api-key']) base.apiKey = f['api-key'];
  if (f.network) base.network = f.network;
  if (f['client-reference']) base.clientReference = f['client-reference'];
  if (f.da) base.da = f.da;
  if (f.oa) base.oa = f.oa;
  if (f.status) base.status = f.status;
  return base;
}

/** A stable key for the query without page and sort: same query, same key. */
export function upstreamQueryKey(base: UpstreamBase): string {
  const entries = Object.entries(base)
    .filter(([, v]) => v !== undefined && v !== '')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(entries);
}

/** Positions [start, end) of the records on a dashboard page. */
export function pagePositions(page: number, pageSize: number): { start: number; end: number } {
  return { start: (page - 1) * pageSize, end: page * pageSize };
}

/** Upstream pages (1-based) holding positions [start, end). */
export function upstreamPagesFor(start: number, end: number, upstreamPageSize: number): number[] {
  if (end <= start) return [];
  const first = Math.floor(start / upstreamPageSize) + 1;
  const last = Math.floor((end - 1) / upstreamPageSize) + 1;
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}

/** The last record position the upstream can reach (it stops at page 1000). */
export function reachableRecords(upstreamPageSize: number): number {
  return MAX_PAGE * upstreamPageSize;
}

/** Dashboard pages that exist, and those that can actually be reached. */
export function pageCounts(totalFound: number, pageSize: number, upstreamPageSize: number) {
  const totalPages = Math.max(1, Math.ceil(totalFound / pageSize));
  const reachable = Math.min(totalFound, reachableRecords(upstreamPageSize));
  const reachablePages = Math.max(1, Math.min(MAX_PAGE, Math.ceil(reachable / pageSize)));
  return { totalPages, reachablePages, truncated: totalPages > reachablePages };
}
