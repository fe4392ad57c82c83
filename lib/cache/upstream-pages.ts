import 'server-only';
/**
 * The upstream-pages executor: records at positions [start, end) of one upstream query, asking the
 * upstream (through the governor) only for the pages the cache (cached-pages.ts) cannot answer,
 * and keeping what it reads. When the upstream cannot be asked (limits, outage), expired pages
 * stand in, said so. Nothing is prefetched: a call is only made for a page somebody asked for.
 */
import { QuotaExceededError } from '../governor/server';
import { ProblemError } from '../http/problem';
import { log } from '../log';
import { translate } from '../i18n/translate';
import { msg } from '../i18n/message';
import { MAX_PAGE, type SortOrder } from '../query/query';
import { pageFault, reachableRecords } from '../query/ranges';
import type { UpstreamBase } from '../query/wire';
import type { CachedPage, PageCacheStore } from './page-cache-store';
import { CachedPages, type Slice } from './cached-pages';
import { isRetryable, UpstreamError } from '../upstream/server';
import type { CachePolicy } from './cache-policy';
import { callsSpentBy, type QueryClass, type UpstreamAccount, type UpstreamGateway } from '../upstream/server';

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
  /** What the cache answers, asked before any call (the planner prices an upstream plan with it). */
  readonly cached: CachedPages;

  constructor(private readonly deps: UpstreamPagesDeps) {
    this.cached = new CachedPages(deps);
  }

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
      const total = await this.cached.knownTotal(account.apiKey, base);
      if (total !== null && start >= total) return { total, records: [], pages: [], calls: 0, fresh: false };
      throw new ProblemError({
        type: '/problems/beyond-reach',
        title: msg('problems.beyondReach.title'),
        status: 400,
        detail: msg('problems.beyondReach.detail', { pages: String(MAX_PAGE), size: pageSize }),
        errors: { page: msg('problems.beyondReach.page') },
      });
    }
    end = Math.min(end, reach);
    let lookup = await this.cached.lookup(account.apiKey, base, to, sortOrder, start, end, this.deps.now(), fetched);
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
            // The search's answer says it in English (its page JSON is one for every reader).
            notWhole = translate('en', fault);
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
      lookup = await this.cached.lookup(
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
