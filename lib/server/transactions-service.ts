import 'server-only';
/**
 * Answers the dashboard's transaction queries while spending as few upstream calls as possible.
 * The records of a page come from the cheapest place that holds them (upstream-pages.ts: the page
 * cache, mirrored pages, or a call); this module turns them into the API's answer and says where
 * they came from and what they cost. A transaction seen in any page is looked up for free.
 */
import type { QuotaSnapshot, SearchPlan, TransactionMeta, TransactionsPage } from '../api/types';
import type { Cdr } from '../cdr/schema';
import { statusInfo } from '../cdr/status';
import { notFound } from '../http/problem';
import { MAX_PAGE, needsLocalHistory, type TransactionsQuery } from '../query/query';
import { upstreamBase, type UpstreamBase } from '../query/wire';
import type { PageCacheStore } from '../store/page-cache';
import { parseUpstreamTimestamp, type Zone } from '../time/zones';
import { UpstreamError } from '../upstream';
import type { CachePolicy } from './cache-policy';
import { localHistoryNeeded } from './local-only';
import { pageLinks, presentCdr } from './present';
import { reachableRecords } from '../query/ranges';
import { canStandIn, staleReason, UpstreamPages, type SliceResult } from './upstream-pages';
import type { UpstreamAccount, UpstreamGateway } from './upstream-gateway';

const NOT_FOUND_TTL_MS = 5 * 60_000;

export interface TransactionsServiceDeps {
  gateway: Pick<UpstreamGateway, 'query' | 'detail' | 'quota'>;
  cache: PageCacheStore;
  policy: CachePolicy;
  /** The page size the upstream is read at (its largest). */
  upstreamPageSize: number;
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

export class TransactionsService {
  /** Unknown trx_ids recently asked for, so asking again does not spend another call. */
  private readonly unknownTrx = new Map<string, number>();
  private readonly pages: UpstreamPages;
  private readonly now: () => number;

  constructor(private readonly deps: TransactionsServiceDeps) {
    this.now = deps.now ?? Date.now;
    this.pages = new UpstreamPages({ gateway: deps.gateway, cache: deps.cache, policy: deps.policy, pageSize: deps.upstreamPageSize, now: this.now });
  }

  private base(account: UpstreamAccount, query: TransactionsQuery): UpstreamBase {
    return upstreamBase(query, { enterpriseId: account.enterpriseId, pageSize: this.deps.upstreamPageSize });
  }

  async page(account: UpstreamAccount, query: TransactionsQuery, signal?: AbortSignal): Promise<TransactionsPage> {
    if (needsLocalHistory(query)) throw localHistoryNeeded(query);
    const { start, end } = pagePositions(query.page, query.pageSize);
    const slice = await this.pages.slice(account, this.base(account, query), query.to.getTime(), query.sortOrder, start, end, 'interactive', signal);
    return this.compose(account, query, slice);
  }

  /** What the search will cost, without making it. */
  async plan(account: UpstreamAccount, query: TransactionsQuery): Promise<SearchPlan> {
    if (needsLocalHistory(query)) throw localHistoryNeeded(query);
    const { start, end } = pagePositions(query.page, query.pageSize);
    const { calls, oldestFetchedAt } = await this.pages.callsFor(account.apiKey, this.base(account, query), query.to.getTime(), query.sortOrder, start, end);
    return {
      calls,
      cachedAgeSeconds: oldestFetchedAt === null ? null : Math.round((this.now() - oldestFetchedAt) / 1000),
      quota: await this.quota(account),
    };
  }

  quota(account: UpstreamAccount): Promise<QuotaSnapshot> {
    return this.deps.gateway.quota(account.apiKey);
  }

  /** One transaction: from the cache when it was seen, else one detail call. */
  async record(account: UpstreamAccount, trxId: string, tz: Zone, signal?: AbortSignal): Promise<{ cdr: Cdr; meta: TransactionMeta }> {
    const id = trxId.toLowerCase();
    const now = this.now();
    const cached = await this.deps.cache.getRecord(account.apiKey, id);
    // A record in a final state no longer changes; one in transit is re-read once its page expired.
    if (cached && (cached.expiresAt > now || statusInfo(cached.cdr.delivery_status)?.final)) {
      return { cdr: presentCdr(cached.cdr, tz), meta: recordMeta('cache', 0, cached.fetchedAt, now) };
    }
    const unknownKey = `${account.apiKey}\u0000${id}`;
    if ((this.unknownTrx.get(unknownKey) ?? 0) > now) throw notFound(`No transaction ${id} is visible to your account (checked in the last few minutes).`);
    let cdr: Cdr;
    try {
      cdr = await this.deps.gateway.detail(account, id, signal);
    } catch (err) {
      if (err instanceof UpstreamError && err.kind === 'not_found') {
        this.forgetOldUnknowns(now);
        this.unknownTrx.set(unknownKey, now + NOT_FOUND_TTL_MS);
        throw notFound(`No transaction ${id} is visible to your account.`);
      }
      if (cached && canStandIn(err)) {
        return { cdr: presentCdr(cached.cdr, tz), meta: { ...recordMeta('cache', 0, cached.fetchedAt, now), stale: staleReason(err) } };
      }
      throw err;
    }
    const fetchedAt = this.now();
    const received = parseUpstreamTimestamp(cdr.date_received)?.getTime() ?? fetchedAt;
    await this.deps.cache.putRecords(account.apiKey, [cdr], fetchedAt, this.deps.policy.expiresAt(received, fetchedAt));
    return { cdr: presentCdr(cdr, tz), meta: recordMeta('upstream', 1, fetchedAt, fetchedAt) };
  }

  /** The memory of unknown ids must not grow without bound (a script could ask for millions). */
  private forgetOldUnknowns(now: number): void {
    if (this.unknownTrx.size < 10_000) return;
    for (const [key, until] of this.unknownTrx) if (until <= now) this.unknownTrx.delete(key);
    if (this.unknownTrx.size >= 10_000) this.unknownTrx.clear();
  }

  private async compose(account: UpstreamAccount, query: TransactionsQuery, slice: SliceResult): Promise<TransactionsPage> {
    const now = this.now();
    const counts = pageCounts(slice.total, query.pageSize, reachableRecords(this.deps.upstreamPageSize));
    const fetchedAt = Math.min(...slice.pages.map((p) => p.fetchedAt));
    const freshUntil = Math.min(...slice.pages.map((p) => p.expiresAt));
    return {
      page_size: query.pageSize,
      page: query.page,
      _links: pageLinks(query, counts.reachablePages),
      _embedded: { total_found: slice.total, cdrs: slice.records.map((c) => presentCdr(c, query.tz)) },
      _meta: {
        source: slice.calls > 0 ? 'upstream' : 'cache',
        calls: slice.calls,
        fetchedAt: new Date(fetchedAt).toISOString(),
        ageSeconds: Math.max(0, Math.round((now - fetchedAt) / 1000)),
        settled: this.deps.policy.isSettled(query.to.getTime(), now),
        freshUntil: new Date(freshUntil).toISOString(),
        tz: query.tz,
        sortOrder: query.sortOrder,
        totalPages: counts.totalPages,
        reachablePages: counts.reachablePages,
        truncated: counts.truncated,
        ...(slice.stale ? { stale: slice.stale } : {}),
        quota: await this.quota(account),
      },
    };
  }
}

function recordMeta(source: 'cache' | 'upstream', calls: number, fetchedAt: number, now: number): TransactionMeta {
  return { source, calls, fetchedAt: new Date(fetchedAt).toISOString(), ageSeconds: Math.max(0, Math.round((now - fetchedAt) / 1000)) };
}
