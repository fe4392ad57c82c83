import 'server-only';
/**
 * The planner: where a search (or an export's window) decides what the local history answers and
 * what goes upstream. The one owner of that rule:
 *  1. a query only the local history can answer (a filter the upstream does not have, an order other
 *     than received time) is read from what it holds, and never spends a call;
 *  2. otherwise the history answers the parts of the range it holds every record of: complete days
 *     (each with the next day's first instant, which its sync reads with it) and complete results
 *     of the cache whose filters the query's include; a query naming an enterprise only where the
 *     history can answer for it (see mayAnswerEnterprise);
 *  3. the rest goes upstream, whose pages the cache serves while they are fresh (cut at whole
 *     seconds by range-pieces.ts, so no record is in two pieces).
 * The plan is a value (plan.ts); `price` says what carrying it out costs now, asking the executors'
 * own dry runs, so the price and the search cannot disagree.
 */
import type { Filters } from '../query/filters';
import { localFiltersIn } from '../query/filters';
import { UPSTREAM_SORT, type TransactionsQuery } from '../query/query';
import type { TimeRange } from '../query/ranges';
import { upstreamBase, type WireFilters } from '../query/wire';
import { heldByDay, scopeOf, type HistoryScope, type Interval } from '../history';
import type { HistoryIndex, HistoryResult, HistoryStore } from '../history/server';
import type { CachedPages } from '../cache/server';
import type { UpstreamAccount } from '../upstream/server';
import { composedCost } from './composed-page';
import type { Plan, PlanCost } from './plan';
import { cut, gapsOf, heldRanges } from './range-pieces';

/** What the planner reads a query by: its filters and order (its range is asked apart). */
export type PlannedQuery = Pick<TransactionsQuery, 'filters' | 'sort'>;

/**
 * What only the local history can answer: a filter the upstream does not have, or an order other
 * than received time. Such a query never spends an upstream call.
 */
export function onlyLocalCanAnswer(query: PlannedQuery): boolean {
  return query.sort !== UPSTREAM_SORT || localFiltersIn(query.filters).length > 0;
}

/** A result can answer a query when every filter of the result is a filter of the query: the query asks for a part of it. */
export function resultServes(result: Pick<HistoryResult, 'filters'>, queryFilters: WireFilters): boolean {
  return Object.entries(result.filters).every(([k, v]) => (queryFilters as Readonly<Record<string, string>>)[k] === v);
}

export interface PlannerDeps {
  index: Pick<HistoryIndex, 'held' | 'holdsAnything' | 'holdsEnterprise'>;
  /** The page size the upstream is read at (its largest). */
  upstreamPageSize: number;
}

/** What pricing a plan reads: the local history's counts and the page cache. */
export interface PriceDeps {
  history: Pick<HistoryStore, 'count'>;
  cached: Pick<CachedPages, 'callsFor' | 'knownTotal'>;
  upstreamPageSize: number;
}

export class Planner {
  constructor(private readonly deps: PlannerDeps) {}

  /** The plan of `query` over `range` (ms, inclusive, whole seconds) for an account. */
  async plan(
    account: Pick<UpstreamAccount, 'apiKey' | 'enterpriseId'>,
    query: PlannedQuery,
    range: TimeRange,
  ): Promise<Plan> {
    const scope = scopeOf(account);
    const { from, to } = range;
    const localOnly = onlyLocalCanAnswer(query);
    // Most accounts hold nothing: then nothing more is asked of the store.
    const held =
      localOnly || (await this.deps.index.holdsAnything(scope.key))
        ? await this.heldFor(scope, range, this.upstreamFilters(account, query.filters, range), localOnly)
        : [];
    if (localOnly) {
      const ranges = heldRanges(from, to, held);
      return { kind: 'local-only', scope: scope.key, ranges, gaps: gapsOf(from, to, ranges) };
    }
    const pieces = held.length > 0 ? cut(from, to, held) : [{ kind: 'upstream' as const, from, to }];
    if (pieces.every((p) => p.kind === 'local')) return { kind: 'local', scope: scope.key, pieces };
    if (pieces.length === 1) return { kind: 'upstream', scope: scope.key, piece: pieces[0]! };
    return { kind: 'composed', scope: scope.key, pieces };
  }

  /**
   * The query's filters as the upstream is asked them (the session's enterprise included): what a
   * complete result of the cache was kept under. The base's range and page size are not filters.
   */
  private upstreamFilters(
    account: Pick<UpstreamAccount, 'enterpriseId'>,
    filters: Filters,
    { from, to }: TimeRange,
  ): WireFilters {
    return upstreamBase(
      { from: new Date(from), to: new Date(to), filters },
      { enterpriseId: account.enterpriseId, pageSize: this.deps.upstreamPageSize },
    ).filters;
  }

  /**
   * Intervals of the range the scope holds every record of, for a query with these upstream filters:
   * complete days (each with the next day's first instant, read with it), and complete results whose
   * filters the query's include — for a query naming an enterprise, only when they can answer for it.
   */
  private async heldFor(
    scope: HistoryScope,
    { from, to }: TimeRange,
    queryFilters: WireFilters,
    localOnly: boolean,
  ): Promise<Interval[]> {
    const { days, results } = await this.deps.index.held(scope.key);
    const asked = queryFilters['enterprise-id'];
    const mayAnswer = await this.mayAnswerEnterprise(scope, asked, from, to, localOnly);
    const out: Interval[] = [];
    for (const day of mayAnswer ? days : []) {
      const held = heldByDay(day);
      if (held.from > to || held.until <= from) continue;
      out.push(held);
    }
    for (const r of results) {
      if (r.from > to || r.to < from || !resultServes(r, queryFilters)) continue;
      if (!mayAnswer && r.filters['enterprise-id'] !== asked) continue;
      out.push({ from: r.from, until: r.to + 1 });
    }
    return out;
  }

  /**
   * Whether what the history holds can answer for the enterprise a query names. A session signed in
   * for no enterprise copies what its key may read, and the upstream refuses (403) an enterprise the
   * key may not read: when the range's records hold none of it, the history cannot tell "none sent"
   * from "not yours", and the query is the upstream's (a complete answer of it is kept as a result
   * with that filter, which answers it next time). Records of it in the range say the key may.
   * A query only the history can answer keeps the history's answer: no upstream could give another.
   */
  private async mayAnswerEnterprise(
    scope: HistoryScope,
    asked: string | undefined,
    from: number,
    to: number,
    localOnly: boolean,
  ): Promise<boolean> {
    if (localOnly || asked === undefined || asked === scope.enterpriseId) return true;
    return this.deps.index.holdsEnterprise(scope.key, asked, from, to);
  }
}

/**
 * What carrying `plan` out for positions [start, end) of `query` would cost now: the executors' dry
 * runs (the cache's pages for an upstream plan, the composed page's pieces), no upstream call.
 */
export async function priceOf(
  deps: PriceDeps,
  plan: Plan,
  account: Pick<UpstreamAccount, 'apiKey' | 'enterpriseId'>,
  query: TransactionsQuery,
  start: number,
  end: number,
): Promise<PlanCost> {
  switch (plan.kind) {
    case 'local-only':
    case 'local':
      return { calls: 0, atLeast: false, oldestFetchedAt: null };
    case 'composed': {
      const { calls, atLeast } = await composedCost(deps, account, plan, query, start, end);
      return { calls, atLeast, oldestFetchedAt: null };
    }
    case 'upstream': {
      const base = upstreamBase(query, { enterpriseId: account.enterpriseId, pageSize: deps.upstreamPageSize });
      const { calls, oldestFetchedAt } = await deps.cached.callsFor(
        account.apiKey,
        base,
        query.to.getTime(),
        query.sortOrder,
        start,
        end,
      );
      return { calls, atLeast: false, oldestFetchedAt };
    }
  }
}
