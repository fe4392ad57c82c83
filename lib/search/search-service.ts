import 'server-only';
/**
 * Answers the dashboard's transaction queries from the cheapest place that holds the records:
 *  1. the local history, for the part of the range it holds completely (complete days, complete
 *     results of the cache) — free, and the only place free text, its own filters and any order
 *     can be answered;
 *  2. the page cache (upstream-pages.ts: cached pages, mirrored pages of a settled range);
 *  3. the upstream, through the governor, for the rest only.
 * A range held partly is cut into pieces (lib/history/coverage.ts) and the page composed from them
 * (composed-page.ts). Every answer says where it came from and what it cost. A transaction seen
 * anywhere is looked up for free.
 */
import type { QuotaSnapshot } from '../governor';
import type { SearchPlan, TransactionMeta, TransactionsMeta, TransactionsPage, UncoveredRange } from './api';
import type { Cdr } from '../cdr/schema';
import { statusInfo } from '../cdr/status';
import { cut, gapsOf, heldRanges, type Interval, type Piece } from '../history';
import { filtersOfParams, type HistoryIndex } from '../history/server';
import { localSearchOf } from '../history/server';
import { scopeOf } from '../history';
import { notFound } from '../http/problem';
import { log } from '../log';
import { reachableRecords } from '../query/ranges';
import { MAX_PAGE, needsLocalHistory, wallClocks, type TransactionsQuery } from '../query/query';
import { upstreamBase, type UpstreamBase } from '../query/wire';
import { unlessStoreUnavailable } from '../db/unavailable';
import type { HistoryStore } from '../history/server';
import type { CachedPage, PageCacheStore } from '../cache/server';
import { parseUpstreamTimestamp, type Zone } from '../time/zones';
import { UpstreamError } from '../upstream/server';
import type { CachePolicy } from '../cache/server';
import { composedCalls, composedSlice } from './composed-page';
import { pageLinks, presentCdr } from './present';
import { canStandIn, staleReason, UpstreamPages } from '../cache/server';
import { callsSpentBy, type UpstreamAccount, type UpstreamGateway } from '../upstream/server';
import { countCacheAnswer } from '../metrics/server';

const NOT_FOUND_TTL_MS = 5 * 60_000;

export interface TransactionsServiceDeps {
  gateway: Pick<UpstreamGateway, 'query' | 'detail' | 'quota'>;
  cache: PageCacheStore;
  policy: CachePolicy;
  history: HistoryStore;
  historyIndex: HistoryIndex;
  /** The page size the upstream is read at (its largest). */
  upstreamPageSize: number;
  /** Told of every upstream page stored (complete settled results become local history). */
  onStoredPage?: ConstructorParameters<typeof UpstreamPages>[0]['onStored'];
  now?: () => number;
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

/** Where a page's records came from and what they cost, before they are presented. */
interface Answer {
  total: number;
  records: Cdr[];
  calls: number;
  source: TransactionsMeta['source'];
  /** The upstream pages used (none for a local answer). */
  pages: CachedPage[];
  /** Positions the answer can reach (the upstream stops at 1000 pages; the local history does not). */
  reachable: number;
  stale?: string;
  notWhole?: string;
  uncovered?: UncoveredRange[];
}

export class TransactionsService {
  /** Unknown trx_ids recently asked for, so asking again does not spend another call. */
  private readonly unknownTrx = new Map<string, number>();
  private readonly pages: UpstreamPages;
  private readonly now: () => number;

  constructor(private readonly deps: TransactionsServiceDeps) {
    this.now = deps.now ?? Date.now;
    this.pages = new UpstreamPages({
      gateway: deps.gateway,
      cache: deps.cache,
      policy: deps.policy,
      pageSize: deps.upstreamPageSize,
      now: this.now,
      ...(deps.onStoredPage ? { onStored: deps.onStoredPage } : {}),
    });
  }

  private base(account: UpstreamAccount, query: TransactionsQuery): UpstreamBase {
    return upstreamBase(query, { enterpriseId: account.enterpriseId, pageSize: this.deps.upstreamPageSize });
  }

  /**
   * How the query's range divides: what the local history holds, cut against what must go upstream.
   * `localOnly`: the query asks what only the local history can answer.
   */
  private async plot(
    account: UpstreamAccount,
    query: TransactionsQuery,
  ): Promise<{ scope: string; localOnly: boolean; held: Interval[]; pieces: Piece[] }> {
    const historyScope = scopeOf(account);
    const scope = historyScope.key;
    const from = query.from.getTime();
    const to = query.to.getTime();
    const localOnly = needsLocalHistory(query);
    const { historyIndex } = this.deps;
    const held =
      localOnly || (await historyIndex.holdsAnything(scope))
        ? await historyIndex.intervals(
            historyScope,
            from,
            to,
            filtersOfParams(this.base(account, query).params),
            localOnly,
          )
        : [];
    return { scope, localOnly, held, pieces: held.length > 0 ? cut(from, to, held) : [{ kind: 'upstream', from, to }] };
  }

  async page(account: UpstreamAccount, query: TransactionsQuery, signal?: AbortSignal): Promise<TransactionsPage> {
    const { start, end } = pagePositions(query.page, query.pageSize);
    const plot = await this.plot(account, query);
    let answer: Answer;
    if (plot.localOnly) answer = await this.localOnly(plot.scope, query, plot.held, start, end);
    else if (plot.pieces.length === 1 && plot.pieces[0]!.kind === 'upstream') {
      const slice = await this.pages.slice(
        account,
        this.base(account, query),
        query.to.getTime(),
        query.sortOrder,
        start,
        end,
        'interactive',
        signal,
      );
      // Read from the upstream for this answer (a call shared with an identical request included);
      // a stale stand-in came from the cache, though the call that failed was spent.
      answer = {
        ...slice,
        source: slice.fresh ? 'upstream' : 'cache',
        reachable: reachableRecords(this.deps.upstreamPageSize),
      };
    } else {
      const composed = await composedSlice(
        { pages: this.pages, history: this.deps.history, upstreamPageSize: this.deps.upstreamPageSize },
        account,
        plot.scope,
        query,
        plot.pieces,
        start,
        end,
        signal,
      );
      answer = {
        ...composed,
        source:
          composed.usedLocal && composed.usedUpstream
            ? 'mixed'
            : composed.usedLocal
              ? 'history'
              : composed.fresh
                ? 'upstream'
                : 'cache',
      };
    }
    countCacheAnswer(answer.source, answer.calls);
    return this.compose(account, query, answer);
  }

  /**
   * A query only the local history can answer (free text, its own filters, another order): it is
   * answered over the complete parts of the range, and says which parts it could not search.
   */
  private async localOnly(
    scope: string,
    query: TransactionsQuery,
    held: Interval[],
    start: number,
    end: number,
  ): Promise<Answer> {
    const from = query.from.getTime();
    const to = query.to.getTime();
    const ranges = heldRanges(from, to, held);
    const search = localSearchOf(scope, query, ranges);
    const { total, bodies } = await this.deps.history.slice(search, start, end - start);
    return {
      total,
      records: bodies.map((b) => JSON.parse(b) as Cdr),
      calls: 0,
      source: 'history',
      pages: [],
      reachable: Number.POSITIVE_INFINITY,
      uncovered: gapsOf(from, to, ranges).map((g) =>
        wallClocks({ from: new Date(g.from), to: new Date(g.to), tz: query.tz }),
      ),
    };
  }

  /** What the search will cost, without making it. */
  async plan(account: UpstreamAccount, query: TransactionsQuery): Promise<SearchPlan> {
    const { start, end } = pagePositions(query.page, query.pageSize);
    const plot = await this.plot(account, query);
    const quota = await this.quota(account);
    if (plot.localOnly) {
      const from = query.from.getTime();
      const to = query.to.getTime();
      const ranges = heldRanges(from, to, plot.held);
      return {
        calls: 0,
        source: 'history',
        cachedAgeSeconds: null,
        quota,
        uncovered: gapsOf(from, to, ranges).map((g) =>
          wallClocks({ from: new Date(g.from), to: new Date(g.to), tz: query.tz }),
        ),
      };
    }
    if (plot.pieces.every((p) => p.kind === 'local'))
      return { calls: 0, source: 'history', cachedAgeSeconds: null, quota };
    if (plot.pieces.length > 1) {
      const { calls, atLeast } = await composedCalls(
        { pages: this.pages, history: this.deps.history, upstreamPageSize: this.deps.upstreamPageSize },
        account,
        plot.scope,
        query,
        plot.pieces,
        start,
        end,
      );
      return {
        calls,
        ...(atLeast ? { callsAtLeast: true as const } : {}),
        source: 'mixed',
        cachedAgeSeconds: null,
        quota,
      };
    }
    const { calls, oldestFetchedAt } = await this.pages.callsFor(
      account.apiKey,
      this.base(account, query),
      query.to.getTime(),
      query.sortOrder,
      start,
      end,
    );
    return {
      calls,
      source: calls > 0 ? 'upstream' : 'cache',
      cachedAgeSeconds: oldestFetchedAt === null ? null : Math.round((this.now() - oldestFetchedAt) / 1000),
      quota,
    };
  }

  quota(account: UpstreamAccount): Promise<QuotaSnapshot> {
    return this.deps.gateway.quota(account.apiKey);
  }

  /** One transaction: from the local history or the cache when it was seen, else one detail call. */
  async record(
    account: UpstreamAccount,
    trxId: string,
    tz: Zone,
    signal?: AbortSignal,
  ): Promise<{ cdr: Cdr; meta: TransactionMeta }> {
    const answer = await this.findRecord(account, trxId, tz, signal);
    countCacheAnswer(answer.meta.source, answer.meta.calls);
    return answer;
  }

  private async findRecord(
    account: UpstreamAccount,
    trxId: string,
    tz: Zone,
    signal?: AbortSignal,
  ): Promise<{ cdr: Cdr; meta: TransactionMeta }> {
    const id = trxId.toLowerCase();
    const now = this.now();
    const kept = await this.deps.history.record(scopeOf(account).key, id);
    if (kept) return { cdr: presentCdr(JSON.parse(kept) as Cdr, tz), meta: recordMeta('history', 0, now, now) };
    // The cache is the API key's; a session signed in for one enterprise is not shown another's
    // record (a key of several enterprises, whose detail call is narrowed to the session's).
    const found = await this.deps.cache.getRecord(account.apiKey, id);
    const cached =
      found && (account.enterpriseId === null || found.cdr.enterprise_id === account.enterpriseId) ? found : null;
    // A record in a final state no longer changes; one in transit is re-read once its page expired.
    if (cached && (cached.expiresAt > now || statusInfo(cached.cdr.delivery_status)?.final)) {
      return { cdr: presentCdr(cached.cdr, tz), meta: recordMeta('cache', 0, cached.fetchedAt, now) };
    }
    const unknownKey = `${scopeOf(account).key}\u0000${id}`;
    if ((this.unknownTrx.get(unknownKey) ?? 0) > now)
      throw notFound(`No transaction ${id} is visible to your account (checked in the last few minutes).`);
    let cdr: Cdr;
    let calls: number;
    try {
      ({ cdr, calls } = await this.deps.gateway.detail(account, id, signal));
    } catch (err) {
      if (err instanceof UpstreamError && err.kind === 'not_found') {
        this.forgetOldUnknowns(now);
        this.unknownTrx.set(unknownKey, now + NOT_FOUND_TTL_MS);
        throw notFound(`No transaction ${id} is visible to your account.`);
      }
      if (cached && canStandIn(err)) {
        return {
          cdr: presentCdr(cached.cdr, tz),
          meta: { ...recordMeta('cache', callsSpentBy(err), cached.fetchedAt, now), stale: staleReason(err) },
        };
      }
      throw err;
    }
    const fetchedAt = this.now();
    const received = parseUpstreamTimestamp(cdr.date_received)?.getTime() ?? fetchedAt;
    // Paid for: the answer whether or not it can be kept (a store restarting costs the next lookup a call, not this one).
    await this.deps.cache
      .putRecords(account.apiKey, [cdr], fetchedAt, this.deps.policy.expiresAt(received, fetchedAt))
      .catch((err: unknown) => {
        log.warn('cache.record_not_kept', {
          account: account.apiKey,
          error: err instanceof Error ? err.message : String(err),
        });
      });
    return { cdr: presentCdr(cdr, tz), meta: recordMeta('upstream', calls, fetchedAt, fetchedAt) };
  }

  /** The memory of unknown ids must not grow without bound (a script could ask for millions). */
  private forgetOldUnknowns(now: number): void {
    if (this.unknownTrx.size < 10_000) return;
    for (const [key, until] of this.unknownTrx) if (until <= now) this.unknownTrx.delete(key);
    if (this.unknownTrx.size >= 10_000) this.unknownTrx.clear();
  }

  private async compose(account: UpstreamAccount, query: TransactionsQuery, answer: Answer): Promise<TransactionsPage> {
    // Left out while the store cannot be read for it: the page itself may be paid for already.
    const quota = await unlessStoreUnavailable(this.quota(account), undefined);
    const now = this.now();
    const counts = pageCounts(answer.total, query.pageSize, answer.reachable);
    // A local answer is as fresh as the settled days it reads: it does not age.
    const fetchedAt = answer.pages.length > 0 ? Math.min(...answer.pages.map((p) => p.fetchedAt)) : now;
    const freshUntil =
      answer.pages.length > 0
        ? Math.min(...answer.pages.map((p) => p.expiresAt))
        : this.deps.policy.expiresAt(query.to.getTime(), now);
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
        settled: this.deps.policy.isSettled(query.to.getTime(), now),
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
}

function recordMeta(source: TransactionMeta['source'], calls: number, fetchedAt: number, now: number): TransactionMeta {
  return {
    source,
    calls,
    fetchedAt: new Date(fetchedAt).toISOString(),
    ageSeconds: Math.max(0, Math.round((now - fetchedAt) / 1000)),
  };
}
