/**
 * What an executor hands back for a page: the records at the page's positions, where they came
 * from and what they cost, before they are presented (present.ts).
 */
import type { Cdr } from '../cdr/schema';
import type { CachedPage } from '../cache/server';
import { MAX_PAGE } from '../query/query';
import type { TransactionsMeta, UncoveredRange } from './api';

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
