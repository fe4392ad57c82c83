import 'server-only';
/**
 * The cached-pages executor: records at positions [start, end) of one upstream query (a base: range
 * and upstream filters, read in UTC at the upstream's largest page size), in one sort order, from
 * the page cache alone. What it cannot answer, upstream-pages.ts asks the upstream for.
 *  - one cached upstream page serves every dashboard page size and zone;
 *  - a settled range serves the opposite sort order by mirroring positions (desc position i is asc
 *    position N-1-i, the tie rule being symmetric);
 *  - positions past the known end cost nothing;
 *  - pages read at different moments join only when they agree on the result's size.
 * Its dry run, `callsFor`, is what the planner prices an upstream plan with.
 */
import type { Cdr } from '../cdr/schema';
import type { SortOrder } from '../query/query';
import { reachableRecords } from '../query/ranges';
import type { UpstreamBase } from '../query/wire';
import type { CachedPage, PageCacheStore } from './page-cache-store';
import type { CachePolicy } from './cache-policy';

/** Records of consecutive positions, and the pages they came from. */
export interface Slice {
  total: number;
  records: Cdr[];
  pages: CachedPage[];
}

/** What the cache can say before any call. */
export interface Lookup {
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

export interface CachedPagesDeps {
  cache: PageCacheStore;
  policy: CachePolicy;
  pageSize: number;
  now: () => number;
}

export class CachedPages {
  constructor(private readonly deps: CachedPagesDeps) {}

  get pageSize(): number {
    return this.deps.pageSize;
  }

  /** Upstream calls upstream-pages.ts's `slice` would spend now (0 when the cache answers). */
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

  /**
   * What the cache holds of positions [start, end): the slice when it answers them, else the pages
   * to fetch, and expired pages that could stand in. `fetched`: pages read from the upstream for
   * this answer, which count as fresh whatever their lifetime.
   */
  async lookup(
    account: string,
    base: UpstreamBase,
    to: number,
    sortOrder: SortOrder,
    start: number,
    end: number,
    now: number,
    fetched: ReadonlyMap<number, CachedPage>,
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
    const stale = allDirect && direct.length > 0 ? slicePages(direct as CachedPage[], start, end, U) : null;

    if (missing.length === 0 && direct.length > 0)
      return { resolved: slicePages(direct as CachedPage[], start, end, U), missing, stale };

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
          const mirrored = slicePages(pages as CachedPage[], mStart, mEnd, U);
          return { resolved: { ...mirrored, records: mirrored.records.reverse() }, missing: [], stale };
        }
      }
    }
    return { resolved: null, missing, stale };
  }
}

/** Records at positions [start, end) from consecutive upstream pages. */
function slicePages(pages: CachedPage[], start: number, end: number, U: number): Slice {
  const first = pages[0] as CachedPage;
  const firstPosition = (first.page - 1) * U;
  const all = pages.length === 1 ? first.body._embedded.cdrs : pages.flatMap((p) => p.body._embedded.cdrs);
  const total = Math.max(...pages.map((p) => p.totalFound));
  return { total, records: all.slice(start - firstPosition, Math.min(end, total) - firstPosition), pages };
}
