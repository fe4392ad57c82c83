/**
 * Whether the parts of a search's range the local history could not search (`_meta.uncovered`)
 * are the whole range: then nothing was searched at all, and an empty result says nothing about
 * what was sent.
 */
import type { UncoveredRange } from './api';
import { wallClocks, type TransactionsQuery } from '../query/query';

export function wholeRangeUncovered(
  uncovered: readonly UncoveredRange[] | undefined,
  query: Pick<TransactionsQuery, 'from' | 'to' | 'tz'>,
): boolean {
  if (!uncovered || uncovered.length !== 1) return false;
  const { dateFrom, dateTo } = wallClocks(query);
  // Wall clocks of one zone, written YYYY-MM-DD HH:MM:SS: ordered as text.
  return uncovered[0]!.dateFrom <= dateFrom && uncovered[0]!.dateTo >= dateTo;
}
