/**
 * The query's stored form: how an export job keeps the query it reads (in the job's JSON, in the
 * store) — instants as epoch ms, the zone and order, `sort` only when it is not the upstream's (a
 * job stored before sorting existed has none), the filters as parsed. Written and read only here, so
 * a job made by any version reads back as the query it was made from.
 */
import type { CdrFieldKey } from '../cdr/fields';
import type { Zone } from '../time/zones';
import type { Filters } from './filters';
import { UPSTREAM_SORT, type QuerySelection, type SortOrder } from './query';

export interface StoredQuery {
  from: number;
  /** The end the query reads to (an export's frozen end). */
  to: number;
  /** The end asked for when it lay in the future and was frozen to `to`, else null. */
  requestedTo: number | null;
  tz: Zone;
  sortOrder: SortOrder;
  /** The column the result is ordered by; absent: received time, the upstream's order. */
  sort?: CdrFieldKey;
  filters: Filters;
}

export function storedQueryOf(query: QuerySelection, requestedTo: Date | null = null): StoredQuery {
  return {
    from: query.from.getTime(),
    to: query.to.getTime(),
    requestedTo: requestedTo?.getTime() ?? null,
    tz: query.tz,
    sortOrder: query.sortOrder,
    ...(query.sort !== UPSTREAM_SORT ? { sort: query.sort } : {}),
    filters: { ...query.filters },
  };
}

/** The query a stored one reads: what it selects, in its zone and order. */
export function selectionOf(stored: StoredQuery): QuerySelection {
  return {
    from: new Date(stored.from),
    to: new Date(stored.to),
    tz: stored.tz,
    sortOrder: stored.sortOrder,
    sort: stored.sort ?? UPSTREAM_SORT,
    filters: { ...stored.filters },
  };
}

/** The end the stored query's request asked for, when it was frozen (else null). */
export function requestedEndOf(stored: StoredQuery): Date | null {
  return stored.requestedTo === null ? null : new Date(stored.requestedTo);
}
