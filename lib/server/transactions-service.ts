import 'server-only';
/**
 * Answers the dashboard's transaction queries while spending as few upstream calls as possible:
 *  - one cached upstream page (UTC, largest page size) serves every dashboard page size and zone;
 *  - a settled range (ended more than 72 h ago) is cached long, and serves the opposite sort order
 *    by mirroring positions (desc position i is asc position N-1-i);
 *  - a page past the known end costs nothing;
 *  - when the upstream cannot be asked (limits, outage), an expired cached page is served with a
 *    note rather than an error;
 *  - every record of every page is indexed by trx_id, so looking a seen one up is free.
 * Nothing here speculates: a call is only made for a page somebody asked for.
 */
import type { QuotaSnapshot, SearchPlan, TransactionMeta, TransactionsPage } from '../api/types';
import type { Cdr, ResultPage } from '../cdr/schema';
import { statusInfo } from '../cdr/status';
import type { Config } from '../config';
import { QuotaExceededError } from '../governor/governor';
import type { TransactionsQuery } from '../query/transactions-query';
import type { PageCacheStore, CachedPage } from '../store/page-cache';
import type { Zone } from '../time/zones';
import { parseUpstreamTimestamp } from '../time/zones';
import { isRetryable, UpstreamError } from '../upstream';
import { notFound, ProblemError } from '../http/problem';
import { pageLinks, presentCdr } from './present';
import type { UpstreamAccount, UpstreamGateway } from './upstream-gateway';
import { pageCounts, pagePositions, reachableRecords, upstreamBase, upstreamPagesFor, upstreamQueryKey, type UpstreamBase } from './upstream-plan';

type Sort = 'asc' | 'desc';

interface Resolved {
  total: number;
  records: Cdr[];
  pages: CachedPage[];
}

/** What the cache can say about a query before any call. */
interface Lookup {
  resolved: Resolved | null;
  /** Upstream pages (in the query's sort) to fetch when not resolved. */
  missing: number[];
  /** Expired pages that could stand in when the upstream cannot be asked. */
  stale: Resolved | null;
}

const NOT_FOUND_TTL_MS = 5 * 60_000;

export class TransactionsService {
  /** Unknown trx_ids recently asked for, so asking again does not spend another call. */
  private readonly unknownTrx = new Map<string, number>();

  constructor(
    private readonly gateway: UpstreamGateway,
    private readonly cache: PageCacheStore,
    private readonly config: Config,
    private readonly now: () => number = Date.now,
  ) {}

  private get upstreamPageSize(): number {
    return this.config.UPSTREAM_PAGE_SIZE;
  }

  private isSettled(to: Date, now: number): boolean {
    return to.getTime() <= now - this.config.CACHE_SETTLED_AFTER_HOURS * 3600_000;
  }

  private ttlFor(settled: boolean): number {
    return settled ? this.config.CACHE_SETTLED_TTL_HOURS * 3600_000 : this.config.CACHE_RECENT_TTL_SECONDS * 1000;
  }

  private base(account: UpstreamAccount, query: TransactionsQuery): { base: UpstreamBase; key: string } {
    const base = upstreamBase(query, account.enterpriseId, this.upstreamPageSize);
    return { base, key: upstreamQueryKey(base) };
  }

  async page(account: UpstreamAccount, query: TransactionsQuery, signal?: AbortSignal): Promise<TransactionsPage> {
    const { base, key } = this.base(account, query);
    const start = this.now();
    const settled = this.isSettled(query.to, start);
    const fetched = new Map<number, CachedPage>();
    let lookup = await this.lookup(account.apiKey, key, query, settled, start, fetched);
    let calls = 0;
    let stale: string | undefined;

    if (!lookup.resolved) {
      const { end } = pagePositions(query.page, query.pageSize);
      if (end > reachableRecords(this.upstreamPageSize) + query.pageSize) {
        throw new ProblemError({
          type: '/problems/beyond-reach',
          title: 'This page is beyond the upstream\u2019s reach',
          status: 400,
          detail: `The Report API serves at most 1000 pages of ${this.upstreamPageSize}; narrow the range or add filters to see these records.`,
          errors: { page: 'Beyond the last page the upstream can serve; narrow the range.' },
        });
      }
      try {
        for (const upstreamPage of lookup.missing) {
          const body = await this.gateway.query(account, { ...base, page: upstreamPage, sortOrder: query.sortOrder }, 'interactive', signal);
          calls += 1;
          fetched.set(upstreamPage, await this.store(account.apiKey, key, query.sortOrder, upstreamPage, body, settled));
        }
      } catch (err) {
        if (!lookup.stale || !canStandIn(err)) throw err;
        stale = staleReason(err);
      }
      lookup = stale ? { ...lookup, resolved: lookup.stale } : await this.lookup(account.apiKey, key, query, settled, this.now(), fetched);
    }
    const resolved = lookup.resolved as Resolved;
    return this.compose(account, query, resolved, calls, settled, stale);
  }

  /** What the search will cost, without making it. */
  async plan(account: UpstreamAccount, query: TransactionsQuery): Promise<SearchPlan> {
    const { key } = this.base(account, query);
    const now = this.now();
    const lookup = await this.lookup(account.apiKey, key, query, this.isSettled(query.to, now), now, new Map());
    const oldest = lookup.resolved ? Math.min(...lookup.resolved.pages.map((p) => p.fetchedAt)) : null;
    return {
      calls: lookup.resolved ? 0 : lookup.missing.length,
      cachedAgeSeconds: oldest === null || !Number.isFinite(oldest) ? null : Math.round((now - oldest) / 1000),
      quota: await this.quota(account),
    };
  }

  quota(account: UpstreamAccount): Promise<QuotaSnapshot> {
    return this.gateway.governor.snapshot(account.apiKey);
  }

  /** One transaction: from the cache when it was seen, else one detail call. */
  async record(account: UpstreamAccount, trxId: string, tz: Zone, signal?: AbortSignal): Promise<{ cdr: Cdr; meta: TransactionMeta }> {
    const id = trxId.toLowerCase();
    const now = this.now();
    const cached = await this.cache.getRecord(account.apiKey, id);
    // A record in a final state no longer changes; one in transit is re-read once its page expired.
    if (cached && (cached.expiresAt > now || statusInfo(cached.cdr.delivery_status)?.final)) {
      return { cdr: presentCdr(cached.cdr, tz), meta: recordMeta('cache', 0, cached.fetchedAt, now) };
    }
    const unknownKey = `${account.apiKey}\u0000${id}`;
    if ((this.unknownTrx.get(unknownKey) ?? 0) > now) throw notFound(`No transaction ${id} is visible to your account (checked in the last few minutes).`);
    let cdr: Cdr;
    try {
      cdr = await this.gateway.detail(account, id, signal);
    } catch (err) {
      if (err instanceof UpstreamError && err.kind === 'not_found') {
        this.unknownTrx.set(unknownKey, now + NOT_FOUND_TTL_MS);
        throw notFound(`No transaction ${id} is visible to your account.`);
      }
      if (cached && canStandIn(err)) {
        return { cdr: presentCdr(cached.cdr, tz), meta: { ...recordMeta('cache', 0, cached.fetchedAt, now), stale: staleReason(err) } };
      }
      throw err;
    }
    const fetchedAt = this.now();
    const received = parseUpstreamTimestamp(cdr.date_received);
    const settled = received !== null && this.isSettled(received, fetchedAt);
    await this.cache.putRecords(account.apiKey, [cdr], fetchedAt, fetchedAt + this.ttlFor(settled));
    return { cdr: presentCdr(cdr, tz), meta: recordMeta('upstream', 1, fetchedAt, fetchedAt) };
  }

  private async store(account: string, key: string, sortOrder: Sort, page: number, body: ResultPage, settled: boolean): Promise<CachedPage> {
    const fetchedAt = this.now();
    const entry: CachedPage = {
      queryKey: key,
      sortOrder,
      page,
      totalFound: body._embedded.total_found,
      body,
      fetchedAt,
      expiresAt: fetchedAt + this.ttlFor(settled),
    };
    await this.cache.putPage(account, entry);
    await this.cache.putRecords(account, body._embedded.cdrs, fetchedAt, entry.expiresAt);
    return entry;
  }

  private async lookup(
    account: string,
    key: string,
    query: TransactionsQuery,
    settled: boolean,
    now: number,
    fetched: Map<number, CachedPage>,
  ): Promise<Lookup> {
    const U = this.upstreamPageSize;
    const { start, end } = pagePositions(query.page, query.pageSize);
    const wanted = upstreamPagesFor(start, end, U);
    const direct = await Promise.all(
      wanted.map(async (p) => fetched.get(p) ?? (await this.cache.getPage(account, key, query.sortOrder, p))),
    );
    const fresh = (p: CachedPage | null): p is CachedPage => p !== null && (p.expiresAt > now || fetched.has(p.page));
    const missing = wanted.filter((_, i) => !fresh(direct[i] ?? null));
    const allDirect = direct.every((p): p is CachedPage => p !== null);
    const stale = allDirect ? slice(direct as CachedPage[], start, end, U) : null;

    if (missing.length === 0) return { resolved: slice(direct as CachedPage[], start, end, U), missing, stale };

    // What does the cache know of the total? A fresh page of either sort order tells it.
    const known = await this.cache.anyPage(account, key, now);
    if (known) {
      const total = known.totalFound;
      // Past the end: nothing to fetch (the upstream would answer an empty page).
      if (start >= total) return { resolved: { total, records: [], pages: [known] }, missing: [], stale };
      if (settled) {
        const opposite: Sort = query.sortOrder === 'asc' ? 'desc' : 'asc';
        const mEnd = total - start;
        const mStart = Math.max(0, total - end);
        const pages = await Promise.all(upstreamPagesFor(mStart, mEnd, U).map((p) => this.cache.getPage(account, key, opposite, p)));
        if (pages.every((p) => fresh(p) && p.totalFound === total)) {
          const mirrored = slice(pages as CachedPage[], mStart, mEnd, U);
          return { resolved: { ...mirrored, records: mirrored.records.reverse() }, missing: [], stale };
        }
      }
    }
    return { resolved: null, missing, stale };
  }

  private async compose(
    account: UpstreamAccount,
    query: TransactionsQuery,
    resolved: Resolved,
    calls: number,
    settled: boolean,
    stale: string | undefined,
  ): Promise<TransactionsPage> {
    const now = this.now();
    const counts = pageCounts(resolved.total, query.pageSize, this.upstreamPageSize);
    const fetchedAt = Math.min(...resolved.pages.map((p) => p.fetchedAt));
    const freshUntil = Math.min(...resolved.pages.map((p) => p.expiresAt));
    return {
      page_size: query.pageSize,
      page: query.page,
      _links: pageLinks(query, counts.reachablePages),
      _embedded: { total_found: resolved.total, cdrs: resolved.records.map((c) => presentCdr(c, query.tz)) },
      _meta: {
        source: calls > 0 ? 'upstream' : 'cache',
        upstreamCalls: calls,
        fetchedAt: new Date(fetchedAt).toISOString(),
        ageSeconds: Math.max(0, Math.round((now - fetchedAt) / 1000)),
        settled,
        freshUntil: new Date(freshUntil).toISOString(),
        tz: query.tz,
        sortOrder: query.sortOrder,
        totalPages: counts.totalPages,
        reachablePages: counts.reachablePages,
        truncated: counts.truncated,
        ...(stale ? { stale } : {}),
        quota: await this.quota(account),
      },
    };
  }
}

/** Records at positions [start, end) from consecutive upstream pages. */
function slice(pages: CachedPage[], start: number, end: number, U: number): Resolved {
  const first = pages[0] as CachedPage;
  const firstPosition = (first.page - 1) * U;
  const all = pages.flatMap((p) => p.body._embedded.cdrs);
  const total = Math.max(...pages.map((p) => p.totalFound));
  return { total, records: all.slice(start - firstPosition, Math.min(end, total) - firstPosition), pages };
}

function canStandIn(err: unknown): boolean {
  return err instanceof QuotaExceededError || isRetryable(err) || (err instanceof UpstreamError && err.kind === 'malformed');
}

function staleReason(err: unknown): string {
  if (err instanceof QuotaExceededError) return `Shown from the cache: ${err.message}`;
  if (err instanceof UpstreamError) return `Shown from the cache: the Report API could not be asked (${err.kind.replace('_', ' ')}).`;
  return 'Shown from the cache: the Report API could not be asked.';
}

function recordMeta(source: 'cache' | 'upstream', calls: number, fetchedAt: number, now: number): TransactionMeta {
  return {
    source,
    upstreamCalls: calls,
    fetchedAt: new Date(fetchedAt).toISOString(),
    ageSeconds: Math.max(0, Math.round((now - fetchedAt) / 1000)),
  };
}
