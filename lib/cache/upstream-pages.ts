import 'server-only';
/**
 * Records at positions [start, end) of one upstream query (a base: range and upstream filters, read
 * in UTC at the upstream's largest page size), in one sort order, spending as few calls as possible:
 *  - one cached upstream page serves every dashboard page size and zone;
 *  - a settled range serves the opposite sort order by mirroring positions (desc position i is asc
 *    position N-1-i, the tie rule being symmetric);
 *  - positions past the known end cost nothing;
 *  - when the upstream cannot be asked (limits, outage), expired pages stand in, said so.
 * Nothing is prefetched: a call is only made for a page somebody asked for.
 */
import type { Cdr } from '../cdr/schema';
import { QuotaExceededError } from '../governor/server';
import { ProblemError } from '../http/problem';
import { log } from '../log';
import { MAX_PAGE, type SortOrder } from '../query/query';
import { pageFault, reachableRecords } from '../query/ranges';
import type { UpstreamBase } from '../query/wire';
import type { CachedPage, PageCacheStore } from './page-cache-store';
import { isRetryable, UpstreamError } from '../upstream/server';
import type { CachePolicy } from './cache-policy';
import { callsSpentBy, type QueryClass, type UpstreamAccount, type UpstreamGateway } from '../upstream/server';

/** Records of consecutive positions, and the pages they came from. */
export interface Slice {
  total: number;
  records: Cdr[];
  pages: CachedPage[];
}

export interface SliceResult extends Slice {
  /** Upstream calls this answer spent (0 for pages read with another request's call). */
  calls: number;
  /** Whether pages were read from the upstream for this answer, rather than all from the cache. */
  fresh: boolean;
  /** Set when expired pages stood in for an upstream that could not be asked: why. */
  stale?: string;
  /** Set when a page read now did not hold what its count promises (shown as sent, not kept): what was wrong. */
  notWhole?: string;
}

/** What the cache can say before any call. */
interface Lookup {
  resolved: Slice | null;
  /** Upstream pages (in the asked sort) to fetch when not resolved. */
  missing: number[];
  /** Expired pages that could stand in when the upstream cannot be asked. */
  stale: Slice | null;
}

/** Upstream pages (1-based) holding positions [start, end). */
export function upstreamPagesFor(start: number, end: number, pageSize: number): number[] {
  if (end <= start) return [];
  const first = Math.floor(start / pageSize) + 1;
  const last = Math.floor((end - 1) / pageSize) + 1;
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}

export interface UpstreamPagesDeps {
  gateway: Pick<UpstreamGateway, 'query'>;
  cache: PageCacheStore;
  policy: CachePolicy;
  pageSize: number;
  now: () => number;
  /** Told of every page stored (the local history keeps complete settled results). */
  onStored?: (account: UpstreamAccount, base: UpstreamBase, sortOrder: SortOrder, totalFound: number) => void;
}

export class UpstreamPages {
  constructor(private readonly deps: UpstreamPagesDeps) {}

  /** Positions [start, end) of `base` in `sortOrder` (`to` is the range's end, for the cache policy). */
  async slice(
    account: UpstreamAccount,
    base: UpstreamBase,
    to: number,
    sortOrder: SortOrder,
    start: number,
    end: number,
    cls: QueryClass,
    signal?: AbortSignal,
  ): Promise<SliceResult> {
    const { gateway, cache, policy, pageSize } = this.deps;
    const fetched = new Map<number, CachedPage>();
    // Positions past the upstream's last page are never asked for: a page of the dashboard reaches
    // past it when UPSTREAM_PAGE_SIZE is smaller than the page, and the upstream refuses page 1001.
    const reach = reachableRecords(pageSize);
    // A page past the end of a result the cache knows the size of is empty, reachable or not.
    if (start >= reach) {
      const total = await this.knownTotal(account.apiKey, base);
      if (total !== null && start >= total) return { total, records: [], pages: [], calls: 0, fresh: false };
      throw new ProblemError({
        type: '/problems/beyond-reach',
        title: 'This page is beyond the upstream\u2019s reach',
        status: 400,
        detail: `The Report API serves at most ${MAX_PAGE} pages of ${pageSize}; narrow the range or add filters to see these records.`,
        errors: { page: 'Beyond the last page the upstream can serve; narrow the range.' },
      });
    }
    end = Math.min(end, reach);
    let lookup = await this.lookup(account.apiKey, base, to, sortOrder, start, end, this.deps.now(), fetched);
    if (lookup.resolved) return { ...lookup.resolved, calls: 0, fresh: false };
    let calls = 0;
    /** Whether a page was read from the upstream for this answer (with a call of its own or another request's). */
    let fresh = false;
    let notWhole: string | undefined;
    /** The result's size once a page has told it: the pages past it are not asked for (they would be empty). */
    let total: number | null = null;
    const standIn = lookup.stale;
    // A second round only when a page read now disagrees with one of the cache on the result's size
    // (a recent range: records arrived between them); its cached neighbours are then read again.
    for (let round = 0; round < 2 && !lookup.resolved; round++) {
      try {
        for (const page of lookup.missing) {
          if (total !== null && (page - 1) * pageSize >= total) break;
          const { page: body, calls: sent } = await gateway.query(account, { base, page, sortOrder }, cls, signal);
          total = body._embedded.total_found;
          calls += sent;
          fresh = true;
          const fetchedAt = this.deps.now();
          const entry: CachedPage = {
            queryKey: base.key,
            sortOrder,
            page,
            totalFound: body._embedded.total_found,
            body,
            fetchedAt,
            expiresAt: policy.expiresAt(to, fetchedAt),
          };
          fetched.set(page, entry);
          // A page short of its count, or with a record twice, is shown this once and not kept.
          const fault = pageFault(body, page, pageSize);
          if (fault) {
            log.warn('upstream.page_not_whole', {
              account: account.apiKey,
              page,
              records: body._embedded.cdrs.length,
              totalFound: entry.totalFound,
            });
            notWhole = fault;
            continue;
          }
          // The page is paid for and answers this search whether or not it can be kept: a store
          // that cannot be written now (a database restarting) costs the next search a call, not this one.
          const kept = await cache.putPage(account.apiKey, entry).then(
            () => true,
            (err: unknown) => {
              log.warn('cache.page_not_kept', {
                account: account.apiKey,
                page,
                error: err instanceof Error ? err.message : String(err),
              });
              return false;
            },
          );
          if (kept) this.deps.onStored?.(account, base, sortOrder, entry.totalFound);
        }
      } catch (err) {
        if (!standIn || !canStandIn(err)) throw err;
        // The failed call counted all the same.
        return { ...standIn, calls: calls + callsSpentBy(err), fresh: false, stale: staleReason(err) };
      }
      // Cut at the result's end: the pages past it were not asked for.
      lookup = await this.lookup(
        account.apiKey,
        base,
        to,
        sortOrder,
        start,
        total === null ? end : Math.max(start + 1, Math.min(end, total)),
        this.deps.now(),
        fetched,
      );
    }
    // Still moving after a second round: the pages as read (each of them fresh).
    return { ...((lookup.resolved ?? lookup.stale) as Slice), calls, fresh, ...(notWhole ? { notWhole } : {}) };
  }

  /** Upstream calls `slice` would spend now (0 when the cache answers). */
  async callsFor(
    account: string,
    base: UpstreamBase,
    to: number,
    sortOrder: SortOrder,
    start: number,
    end: number,
  ): Promise<{ calls: number; oldestFetchedAt: number | null }> {
    // Beyond the upstream's reach nothing is asked (slice refuses it).
    const reach = reachableRecords(this.deps.pageSize);
    if (start >= reach) return { calls: 0, oldestFetchedAt: null };
    const lookup = await this.lookup(
      account,
      base,
      to,
      sortOrder,
      start,
      Math.min(end, reach),
      this.deps.now(),
      new Map(),
    );
    if (!lookup.resolved) return { calls: lookup.missing.length, oldestFetchedAt: null };
    const oldest = Math.min(...lookup.resolved.pages.map((p) => p.fetchedAt));
    return { calls: 0, oldestFetchedAt: Number.isFinite(oldest) ? oldest : null };
  }

  /** A fresh page of a query (either sort), which says its total (the answer's age is the page's), else null. */
  async countingPage(account: string, base: UpstreamBase): Promise<CachedPage | null> {
    return this.deps.cache.anyPage(account, base.key, this.deps.now());
  }

  /** The total of a query when a fresh page of it (either sort) is cached, else null. */
  async knownTotal(account: string, base: UpstreamBase): Promise<number | null> {
    return (await this.countingPage(account, base))?.totalFound ?? null;
  }

  private async lookup(
    account: string,
    base: UpstreamBase,
    to: number,
    sortOrder: SortOrder,
    start: number,
    end: number,
    now: number,
    fetched: Map<number, CachedPage>,
  ): Promise<Lookup> {
    const { cache, policy, pageSize: U } = this.deps;
    const wanted = upstreamPagesFor(start, end, U);
    const direct = await Promise.all(
      wanted.map(async (p) => fetched.get(p) ?? (await cache.getPage(account, base.key, sortOrder, p))),
    );
    const usable = (p: CachedPage | null | undefined): p is CachedPage =>
      !!p && (p.expiresAt > now || fetched.has(p.page));
    // Pages read at different moments join only when they agree on the result's size (the newest
    // read's): otherwise records moved between them, and joined they would repeat some, miss others.
    const newest = direct
      .filter(usable)
      .reduce<CachedPage | null>((a, p) => (!a || p.fetchedAt > a.fetchedAt ? p : a), null);
    const fresh = (p: CachedPage | null | undefined): p is CachedPage =>
      usable(p) && (!newest || p.totalFound === newest.totalFound);
    const missing = wanted.filter((_, i) => !fresh(direct[i]));
    const allDirect = direct.every((p): p is CachedPage => p !== null);
    const stale = allDirect && direct.length > 0 ? cut(direct as CachedPage[], start, end, U) : null;

    if (missing.length === 0 && direct.length > 0)
      return { resolved: cut(direct as CachedPage[], start, end, U), missing, stale };

    // What does the cache know of the total? A fresh page of either sort order tells it.
    const known = await cache.anyPage(account, base.key, now);
    if (known) {
      const total = known.totalFound;
      // Past the end: nothing to fetch (the upstream would answer an empty page).
      if (start >= total) return { resolved: { total, records: [], pages: [known] }, missing: [], stale };
      if (policy.isSettled(to, now)) {
        const opposite: SortOrder = sortOrder === 'asc' ? 'desc' : 'asc';
        const mEnd = total - start;
        const mStart = Math.max(0, total - end);
        const pages = await Promise.all(
          upstreamPagesFor(mStart, mEnd, U).map((p) => cache.getPage(account, base.key, opposite, p)),
        );
        if (pages.every((p) => usable(p) && p.totalFound === total)) {
          const mirrored = cut(pages as CachedPage[], mStart, mEnd, U);
          return { resolved: { ...mirrored, records: mirrored.records.reverse() }, missing: [], stale };
        }
      }
    }
    return { resolved: null, missing, stale };
  }
}

/** Records at positions [start, end) from consecutive upstream pages. */
function cut(pages: CachedPage[], start: number, end: number, U: number): Slice {
  const first = pages[0] as CachedPage;
  const firstPosition = (first.page - 1) * U;
  const all = pages.length === 1 ? first.body._embedded.cdrs : pages.flatMap((p) => p.body._embedded.cdrs);
  const total = Math.max(...pages.map((p) => p.totalFound));
  return { total, records: all.slice(start - firstPosition, Math.min(end, total) - firstPosition), pages };
}

/** Whether an expired copy may be shown instead of failing: the upstream could not be asked, or answered nonsense. */
export function canStandIn(err: unknown): boolean {
  return (
    err instanceof QuotaExceededError || isRetryable(err) || (err instanceof UpstreamError && err.kind === 'malformed')
  );
}

export function staleReason(err: unknown): string {
  if (err instanceof QuotaExceededError) return `Shown from the cache: ${err.message}`;
  if (err instanceof UpstreamError)
    return `Shown from the cache: the Report API could not be asked (${err.kind.replace('_', ' ')}).`;
  return 'Shown from the cache: the Report API could not be asked.';
}
