/**
 * The dashboard's own HTTP API, as the browser (and any script) sees it. It mirrors the upstream's
 * result page (seed §2.1) and adds `_meta`. Browser-safe: types, and the few constants both sides share.
 */
import type { Cdr } from '../cdr/schema';
import type { Zone } from '../time/zones';
import type { SortOrder } from '../query/query';
import type { QuotaSnapshot } from '../governor';

export type { Cdr };

export interface Link {
  href: string;
}

/** Part of a range the local history could not search (a day not copied, or not settled yet). */
export interface UncoveredRange {
  /** Wall clocks in the answer's zone, as the query writes them. */
  dateFrom: string;
  dateTo: string;
}

export interface TransactionsMeta {
  /**
   * Where the records came from: the local history (`history`, no call), the page cache (`cache`, no
   * call, unless it stands in for a call that failed: `stale` says why, `calls` counts it), the
   * upstream (`upstream`: calls were made for this answer), or the local history for part of the
   * range and the upstream or its cache for the rest (`mixed`).
   */
  source: 'cache' | 'upstream' | 'history' | 'mixed';
  /**
   * Upstream calls this request spent, those that failed included (they count against the windows);
   * 0 for an answer read with the call of an identical request made at the same time.
   */
  calls: number;
  /** When the upstream page behind this answer was fetched (ISO). */
  fetchedAt: string;
  ageSeconds: number;
  /** The range ended long enough ago (72 h) that its records no longer change. */
  settled: boolean;
  /** Until when the cached page is served without asking the upstream again (ISO). */
  freshUntil: string;
  tz: Zone;
  sortOrder: SortOrder;
  /** Pages at this page size for total_found. */
  totalPages: number;
  /** Pages that can actually be reached (the upstream stops at page 1000). */
  reachablePages: number;
  /** True when total_found is more than can be reached: narrow the range or filters. */
  truncated: boolean;
  /**
   * Set when the upstream could not be asked (limits, outage) and an expired cached page was served
   * instead; says why. The records are real but may be out of date.
   */
  stale?: string;
  /**
   * Set when a page the upstream sent for this answer did not hold what its own count promises (a
   * record missing, or one twice): says what. The page is shown as it came and not kept; asking
   * again (a call) may give the whole page.
   */
  notWhole?: string;
  /**
   * Set when the query uses what only the local history can do (free text, its own filters, another
   * order): it searched only the complete days; these parts of the range it could not search.
   */
  uncovered?: UncoveredRange[];
  /** The account's quota after the search; absent when the store could not be read for it at that moment (the page was answered all the same). */
  quota?: QuotaSnapshot;
}

export interface TransactionsPage {
  page_size: number;
  page: number;
  _links: { self: Link; first: Link; last: Link; next?: Link; prev?: Link };
  _embedded: { total_found: number; cdrs: Cdr[] };
  _meta: TransactionsMeta;
}

/** What a search would cost before it is made (GET /api/plan). */
export interface SearchPlan {
  /** Upstream calls the search will spend: 0 when it is served from the cache or the local history. */
  calls: number;
  /**
   * Set when `calls` is a lower bound: a range partly in the local history, whose upstream part's
   * size is not known yet (its first call tells where the page's records fall).
   */
  callsAtLeast?: true;
  /** Where it will be answered from (see TransactionsMeta.source); `upstream` when it costs calls. */
  source: TransactionsMeta['source'];
  /** For a query only the local history can answer: the parts of its range it cannot search. */
  uncovered?: UncoveredRange[];
  cachedAgeSeconds: number | null;
  quota: QuotaSnapshot;
}
