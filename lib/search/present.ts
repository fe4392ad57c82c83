/**
 * Turns an executor's answer (answer.ts) into what the dashboard answers: the page with its
 * `_meta` (where it came from, what it cost, how old it is) and links into the dashboard's own API
 * that carry the whole query — the upstream's links drop filters, date-to and sort (seed sample),
 * ours never do. Records are presented in the person's zone (lib/http/present-cdr.ts).
 */
import type { QuotaSnapshot } from '../governor';
import type { TransactionsPage } from './api';
import type { CachePolicy } from '../cache/server';
import { presentCdr } from '../http/present-cdr';
import { queryParams, type TransactionsQuery } from '../query/query';
import { API_PATHS } from '../http/paths';
import { pageCounts, type Answer } from './answer';

export function pageLinks(query: TransactionsQuery, reachablePages: number): TransactionsPage['_links'] {
  // `page` is the last parameter of the canonical form: the links differ only there.
  const { page: _page, ...rest } = query;
  const prefix = `${API_PATHS.transactions}?${queryParams(rest).toString()}&page=`;
  const href = (page: number) => ({ href: `${prefix}${page}` });
  const links: TransactionsPage['_links'] = { self: href(query.page), first: href(1), last: href(reachablePages) };
  if (query.page < reachablePages) links.next = href(query.page + 1);
  if (query.page > 1) links.prev = href(Math.min(query.page - 1, reachablePages));
  return links;
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
