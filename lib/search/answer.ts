/**
 * What an executor hands back for a page — the records at the page's positions, where they came
 * from and what they cost — and the page the dashboard answers with it: its records presented in
 * the person's zone (present.ts) and its `_meta`, where it came from, what it cost, how old it is.
 */
import type { Cdr } from '../cdr/schema';
import type { CachedPage, CachePolicy } from '../cache/server';
import type { QuotaSnapshot } from '../governor';
import { MAX_PAGE, type TransactionsQuery } from '../query/query';
import type { TransactionsMeta, TransactionsPage, UncoveredRange } from './api';
import { pageLinks, presentCdr } from './present';

export interface Answer {
  total: number;
  records: Cdr[];
  calls: number;
  source: TransactionsMeta['source'];
  /** The upstream pages used (none for a local answer): the answer is as old as the oldest. */
  pages: CachedPage[];
  /** Positions the answer can reach (the upstream stops at 1000 pages; the local history does not). */
  reachable: number;
  stale?: string;
  notWhole?: string;
  uncovered?: UncoveredRange[];
}

/** Positions [start, end) of a dashboard page. */
export function pagePositions(page: number, pageSize: number): { start: number; end: number } {
  return { start: (page - 1) * pageSize, end: page * pageSize };
}

/** Dashboard pages that exist, and those that can actually be reached. */
export function pageCounts(totalFound: number, pageSize: number, reachable: number) {
  const totalPages = Math.max(1, Math.ceil(totalFound / pageSize));
  const reachablePages = Math.max(1, Math.min(MAX_PAGE, Math.ceil(Math.min(totalFound, reachable) / pageSize)));
  return { totalPages, reachablePages, truncated: totalPages > reachablePages };
}

/** The page the dashboard answers for `answer`. `quota`: left out while the store cannot be read for it. */
export function presentPage(
  answer: Answer,
  query: TransactionsQuery,
  ctx: { quota: QuotaSnapshot | undefined; policy: CachePolicy; now: number },
): TransactionsPage {
  const { quota, policy, now } = ctx;
  const counts = pageCounts(answer.total, query.pageSize, answer.reachable);
  // A local answer is as fresh as the settled days it reads: it does not age.
  const fetchedAt = answer.pages.length > 0 ? Math.min(...answer.pages.map((p) => p.fetchedAt)) : now;
  const freshUntil =
    answer.pages.length > 0
      ? Math.min(...answer.pages.map((p) => p.expiresAt))
      : policy.expiresAt(query.to.getTime(), now);
  return {
    page_size: query.pageSize,
    page: query.page,
    _links: pageLinks(query, counts.reachablePages),
    _embedded: { total_found: answer.total, cdrs: answer.records.map((c) => presentCdr(c, query.tz)) },
    _meta: {
      source: answer.source,
      calls: answer.calls,
      fetchedAt: new Date(fetchedAt).toISOString(),
      ageSeconds: Math.max(0, Math.round((now - fetchedAt) / 1000)),
      settled: policy.isSettled(query.to.getTime(), now),
      freshUntil: new Date(freshUntil).toISOString(),
      tz: query.tz,
      sortOrder: query.sortOrder,
      totalPages: counts.totalPages,
      reachablePages: counts.reachablePages,
      truncated: counts.truncated,
      ...(answer.stale ? { stale: answer.stale } : {}),
      ...(answer.notWhole ? { notWhole: answer.notWhole } : {}),
      ...(answer.uncovered ? { uncovered: answer.uncovered } : {}),
      ...(quota ? { quota } : {}),
    },
  };
}
