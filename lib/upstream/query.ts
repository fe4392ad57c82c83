import 'server-only';
/**
 * The upstream query as it goes on the wire (seed §4.1): the seed's parameter names in the query
 * string, URL-encoded the way the sample request is (space as `+`, colon as `%3A`, which is what
 * URLSearchParams produces), no body.
 */
import { WALL_CLOCK_PATTERN } from '../time/zones';

export interface UpstreamQuery {
  /** 'YYYY-MM-DD HH:MM:SS', read by the upstream in `tz`. */
  dateFrom: string;
  dateTo: string;
  page: number;
  pageSize: number;
  tz: 'UTC' | 'JST';
  sortOrder: 'asc' | 'desc';
  apiKey?: string;
  network?: string;
  clientReference?: string;
  da?: string;
  oa?: string;
  status?: string;
  enterpriseId?: string;
}

/**
 * Wire order. The sample request reads `enterprise-id, date-from, date-to, page-size, tz`; the
 * parameters it does not show are slotted in around those in the seed's table order, so a query
 * with only the sample's parameters encodes byte for byte like the sample.
 */
const WIRE: readonly (readonly [keyof UpstreamQuery, string, 'always' | 'optional'])[] = [
  ['enterpriseId', 'enterprise-id', 'optional'],
  ['dateFrom', 'date-from', 'always'],
  ['dateTo', 'date-to', 'always'],
  ['pageSize', 'page-size', 'always'],
  ['page', 'page', 'always'],
  ['apiKey', 'api-key', 'optional'],
  ['network', 'network', 'optional'],
  ['clientReference', 'client-reference', 'optional'],
  ['da', 'da', 'optional'],
  ['oa', 'oa', 'optional'],
  ['status', 'status', 'optional'],
  ['tz', 'tz', 'always'],
  ['sortOrder', 'sort-order', 'always'],
];

/** `2026-01-05T09:00` (a datetime-local value) → `2026-01-05 09:00:00`; anything else unchanged. */
function wallClock(value: string): string {
  const m = WALL_CLOCK_PATTERN.exec(value);
  if (!m) return value;
  const [, y, mo, d, h, mi, s = '00'] = m;
  return `${y}-${mo}-${d} ${h}:${mi}:${s}`;
}

function wireValue(key: keyof UpstreamQuery, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (key === 'page' || key === 'pageSize') {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
      // A programming error upstream of here; sending "NaN" would spend a precious call on a 400.
      throw new RangeError(`${key} must be a positive integer; got ${String(value)}`);
    }
    return String(value);
  }
  const text = String(value).trim();
  if (key === 'dateFrom' || key === 'dateTo') return wallClock(text);
  return text === '' ? undefined : text;
}

function toParams(q: UpstreamQuery): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, name, presence] of WIRE) {
    const value = wireValue(key, q[key]);
    if (value === undefined) continue;
    if (value === '' && presence === 'optional') continue;
    params.append(name, value);
  }
  return params;
}

/** The query string (without `?`) for the query endpoint. Throws RangeError for a non-integer page. */
export function toUpstreamSearch(q: UpstreamQuery): string {
  return toParams(q).toString();
}

/**
 * A canonical key for the cache: two queries that would send the same request get the same key,
 * whatever order their object keys were written in and whatever whitespace surrounds the values.
 * It is the wire query itself, so "same key" and "same upstream request" can never drift apart.
 */
export function normaliseUpstreamQuery(q: UpstreamQuery): string {
  return toUpstreamSearch(q);
}
