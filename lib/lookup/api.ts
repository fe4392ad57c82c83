/**
 * GET /api/transactions/<trx_id> as the browser (and any script) sees it: the record itself, with
 * `_meta` beside its fields. Browser-safe: types only.
 */
import type { Cdr } from '../cdr/schema';

/** `_meta` of a single transaction: where it was found and what finding it cost. */
export interface TransactionMeta {
  /** The local history or the page cache (no call), or the upstream's detail call. */
  source: 'cache' | 'upstream' | 'history';
  /** Upstream calls this lookup spent, those that failed included. */
  calls: number;
  /** When the record was read from the upstream (ISO). */
  fetchedAt: string;
  ageSeconds: number;
  /** Set when the upstream could not be asked and a cached copy stood in: why. */
  stale?: string;
}

export type TransactionDetail = Cdr & { _meta: TransactionMeta };
