import 'server-only';
/**
 * The local-history executor: positions of a query read from what the local history holds, at no
 * call. A `local-only` plan is answered here whole (over the parts of the range the history holds,
 * naming those it could not search); the composed executor reads its local pieces here.
 */
import type { Cdr } from '../cdr/schema';
import { localSearchOf, type HistoryStore } from '../history/server';
import type { TimeRange } from '../query/ranges';
import type { TransactionsQuery } from '../query/query';
import type { Answer } from './answer';
import { uncoveredOf, type Plan } from './plan';

type LocalQuery = Pick<TransactionsQuery, 'filters' | 'sort' | 'sortOrder'>;

/** `count` records from position `from` of the query over `ranges`, and how many the ranges hold. */
export async function readLocal(
  history: Pick<HistoryStore, 'slice'>,
  scope: string,
  query: LocalQuery,
  ranges: readonly TimeRange[],
  from: number,
  count: number,
): Promise<{ total: number; records: Cdr[] }> {
  const search = localSearchOf(scope, query, rangesOnly(ranges));
  const { total, bodies } = await history.slice(search, from, count);
  return { total, records: bodies.map((b) => JSON.parse(b) as Cdr) };
}

/** How many records of the query the ranges hold. */
export function countLocal(
  history: Pick<HistoryStore, 'count'>,
  scope: string,
  query: LocalQuery,
  ranges: readonly TimeRange[],
): Promise<number> {
  return history.count(localSearchOf(scope, query, rangesOnly(ranges)));
}

/** Positions [start, end) of a query only the local history can answer, and the parts of its range it could not search. */
export async function localOnlyAnswer(
  history: Pick<HistoryStore, 'slice'>,
  plan: Extract<Plan, { kind: 'local-only' }>,
  query: TransactionsQuery,
  start: number,
  end: number,
): Promise<Answer> {
  const { total, records } = await readLocal(history, plan.scope, query, plan.ranges, start, end - start);
  return {
    total,
    records,
    calls: 0,
    source: 'history',
    pages: [],
    reachable: Number.POSITIVE_INFINITY,
    uncovered: uncoveredOf(plan.gaps, query.tz),
  };
}

/** Ranges as the search keeps them: a piece's kind is not the store's business. */
function rangesOnly(ranges: readonly TimeRange[]): TimeRange[] {
  return ranges.map((r) => ({ from: r.from, to: r.to }));
}
