/**
 * The upstream's wire form of a query (seed §4.1): the seed's parameter names in the query string,
 * URL-encoded as the sample request is (space as `+`, colon as `%3A`, which URLSearchParams
 * produces), no body. The dashboard always reads the upstream in UTC at its largest page size, so
 * one upstream page serves every dashboard page size and both zones.
 *
 * `UpstreamBase.key` — the wire form without page and sort — together with the sort order and the
 * page number is the one identity of an upstream request: the page cache is keyed by it, identical
 * requests in flight share one call by it, and the local history names a complete result by it. A
 * base carries what it was written from (range, filters), so nothing reads its parameters back.
 */
import { formatWallClock, parseWallClock, type Zone } from '../time/zones';
import { isFilterParam, type UpstreamFilterParam } from './filters';
import type { SortOrder } from './query';

/**
 * THE list of the wire's parameters, in the order they are written. The sample request reads
 * `enterprise-id, date-from, date-to, page-size, tz`; the parameters it does not show are slotted in
 * around those in the seed's table order, so a query with only the sample's parameters encodes byte
 * for byte like the sample (and every key the cache and the local history hold stays what it was).
 * Which of them are filters the field list says (lib/cdr/fields.ts, `source: 'upstream'`); the
 * type below fails the build when a filter the upstream applies is missing here.
 */
const WIRE_PARAMS = [
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
] as const satisfies readonly (
  UpstreamFilterParam | 'date-from' | 'date-to' | 'page-size' | 'page' | 'tz' | 'sort-order'
)[];

type MissingFromWire = Exclude<UpstreamFilterParam, (typeof WIRE_PARAMS)[number]>;
/** Compiles only while every upstream filter is a wire parameter. */
const EVERY_UPSTREAM_FILTER_IS_SENT: [MissingFromWire] extends [never] ? true : MissingFromWire = true;
void EVERY_UPSTREAM_FILTER_IS_SENT;

/** The filters the wire carries, in wire order. */
export const WIRE_FILTERS: readonly UpstreamFilterParam[] = WIRE_PARAMS.filter((p): p is UpstreamFilterParam =>
  isFilterParam(p),
);

/** The upstream filters of a request, by the seed's names (the enterprise included, the account's when no filter names one). */
export type WireFilters = Readonly<Partial<Record<UpstreamFilterParam, string>>>;

export interface UpstreamBase {
  /** Every parameter but page and sort-order, by name. */
  readonly params: Readonly<Record<string, string>>;
  /** The wire form of `params`: the cache's and the call-sharing's key. */
  readonly key: string;
  /** The range sent, as instants (ms, whole seconds, inclusive). */
  readonly from: number;
  readonly to: number;
  /** The filters sent. */
  readonly filters: WireFilters;
}

export interface UpstreamSlice {
  from: Date;
  to: Date;
  filters: Readonly<Partial<Record<string, string>>>;
}

function encode(params: Readonly<Record<string, string>>): string {
  const out = new URLSearchParams();
  for (const name of WIRE_PARAMS) {
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
  const filters: Partial<Record<UpstreamFilterParam, string>> = {};
  for (const name of WIRE_FILTERS) {
    const v = name === 'enterprise-id' ? (slice.filters[name] ?? opts.enterpriseId) : slice.filters[name];
    if (v) params[name] = filters[name] = v;
  }
  return { params, key: encode(params), from: slice.from.getTime(), to: slice.to.getTime(), filters };
}

/**
 * A base read from parameters in the upstream's names (the wire form parsed back: tests of the
 * client, which speak the wire). The range must be readable wall clocks in UTC.
 */
export function baseOf(params: Readonly<Record<string, string>>): UpstreamBase {
  const from = parseWallClock(params['date-from'] ?? '', 'UTC');
  const to = parseWallClock(params['date-to'] ?? '', 'UTC');
  if (!from || !to) throw new RangeError('date-from and date-to must be wall clocks (YYYY-MM-DD HH:MM:SS) in UTC');
  const filters: Partial<Record<UpstreamFilterParam, string>> = {};
  for (const name of WIRE_FILTERS) if (params[name]) filters[name] = params[name];
  return { params, key: encode(params), from: from.getTime(), to: to.getTime(), filters };
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

/**
 * The query string (without `?`, maybe empty) of a transaction's detail resource (seed §4.2, whose
 * parameters the seed does not show): the query endpoint's names for the enterprise and the zone.
 */
export function detailSearch(opts: { enterpriseId?: string | null; tz?: Zone }): string {
  const out = new URLSearchParams();
  const enterpriseId = opts.enterpriseId?.trim();
  if (enterpriseId) out.append('enterprise-id', enterpriseId);
  if (opts.tz) out.append('tz', opts.tz);
  return out.toString();
}

/** The identity of a request: same key, same upstream answer. */
export function requestKey(req: UpstreamRequest): string {
  return `${req.base.key}\u0000${req.sortOrder}\u0000${req.page}`;
}

/** The page number an upstream answer's link points at (`_links.last.href`…): NaN when there is none. */
export function pageOfLink(href: unknown): number {
  if (typeof href !== 'string') return NaN;
  const query = href.split('?')[1];
  return query === undefined ? NaN : Number(new URLSearchParams(query).get('page') ?? NaN);
}
