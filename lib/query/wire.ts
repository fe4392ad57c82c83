/**
 * The upstream's wire form of a query (seed §4.1): the seed's parameter names in the query string,
 * URL-encoded as the sample request is (space as `+`, colon as `%3A`, which URLSearchParams
 * produces), no body. The dashboard always reads the upstream in UTC at its largest page size, so
 * one upstream page serves every dashboard page size and both zones.
 *
 * `UpstreamBase.key` — the wire form without page and sort — together with the sort order and the
 * page number is the one identity of an upstream request: the page cache is keyed by it and
 * identical requests in flight share one call by it.
 */
import { formatWallClock } from '../time/zones';
import { UPSTREAM_FILTERS, type Filters } from './filters';
import type { SortOrder } from './query';

/**
 * Wire order. The sample request reads `enterprise-id, date-from, date-to, page-size, tz`; the
 * parameters it does not show are slotted in around those in the seed's table order, so a query
 * with only the sample's parameters encodes byte for byte like the sample.
 */
const WIRE_ORDER = [
  'enterprise-id',
  'date-from',
  'date-to',
  'page-size',
  'page',
  'api-key',
  'network',
  'client-reference',
  'da',
  'oa',
  'status',
  'tz',
  'sort-order',
] as const;

export interface UpstreamBase {
  /** Every parameter but page and sort-order, by name. */
  readonly params: Readonly<Record<string, string>>;
  /** The wire form of `params`: the cache's and the call-sharing's key. */
  readonly key: string;
}

export interface UpstreamSlice {
  from: Date;
  to: Date;
  filters: Filters;
}

function encode(params: Readonly<Record<string, string>>): string {
  const out = new URLSearchParams();
  for (const name of WIRE_ORDER) {
    const v = params[name];
    if (v !== undefined && v !== '') out.append(name, v);
  }
  return out.toString();
}

/**
 * The upstream query for a slice of the dashboard's query: its range in UTC, its upstream filters,
 * the enterprise (the filter's, else the account's own), the upstream page size.
 */
export function upstreamBase(
  slice: UpstreamSlice,
  opts: { enterpriseId: string | null; pageSize: number },
): UpstreamBase {
  if (!Number.isSafeInteger(opts.pageSize) || opts.pageSize < 1)
    throw new RangeError(`page-size must be a positive integer; got ${String(opts.pageSize)}`);
  const params: Record<string, string> = {
    'date-from': formatWallClock(slice.from, 'UTC'),
    'date-to': formatWallClock(slice.to, 'UTC'),
    'page-size': String(opts.pageSize),
    tz: 'UTC',
  };
  for (const def of UPSTREAM_FILTERS) {
    const v = slice.filters[def.param];
    if (v) params[def.param] = v;
  }
  const enterpriseId = slice.filters['enterprise-id'] ?? opts.enterpriseId;
  if (enterpriseId) params['enterprise-id'] = enterpriseId;
  return baseOf(params);
}

/** A base from parameters already in the upstream's names (upstreamBase, and tests of the client). */
export function baseOf(params: Readonly<Record<string, string>>): UpstreamBase {
  return { params, key: encode(params) };
}

/** One page of a base, in one sort order: what is sent, and its identity. */
export interface UpstreamRequest {
  readonly base: UpstreamBase;
  readonly page: number;
  readonly sortOrder: SortOrder;
}

/** The query string (without `?`) for the query endpoint. */
export function wireSearch(req: UpstreamRequest): string {
  if (!Number.isSafeInteger(req.page) || req.page < 1) {
    // A programming error upstream of here; sending "NaN" would spend a precious call on a 400.
    throw new RangeError(`page must be a positive integer; got ${String(req.page)}`);
  }
  return encode({ ...req.base.params, page: String(req.page), 'sort-order': req.sortOrder });
}

/** The identity of a request: same key, same upstream answer. */
export function requestKey(req: UpstreamRequest): string {
  return `${req.base.key}\u0000${req.sortOrder}\u0000${req.page}`;
}
