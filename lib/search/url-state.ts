/**
 * The transactions page's URL: the query's own parameters (so a page URL and an API URL carry the
 * same query) plus `row` for the open record. The URL is the state; this module reads it as "what
 * has been searched" with the one query parser (lib/query/query.ts), and writes a query back.
 */
import { FILTERS, type FilterParam } from '../query/filters';
import {
  MAX_PAGE,
  PAGE_SIZES,
  parseQuery,
  parseZone,
  QUERY_DEFAULTS,
  QUERY_PARAMS,
  queryKey,
  queryParams,
  SORT_ORDERS,
  UPSTREAM_SORT,
  type FieldErrors,
  type PageSize,
  type SortOrder,
  type TransactionsQuery,
} from '../query/query';
import { isFieldKey, type CdrFieldKey } from '../cdr/fields';
import type { Zone } from '../time/zones';
import { PAGE_PATHS } from '../http/paths';

export const ROW_PARAM = 'row';
/** Every parameter the page URL carries. */
export const PAGE_URL_PARAMS = [...QUERY_PARAMS, ROW_PARAM] as const;

export type PageUrlValues = Partial<Record<string, string | null>>;

/**
 * The zone a page URL is read in: its `tz`; without one, a URL that names a range is read as the API
 * reads it (UTC, the upstream's default), and a bare page link opens in `preferred`, the zone the
 * person last picked (lib/query/zone-preference.ts).
 */
export function zoneOf(values: PageUrlValues, preferred: Zone = QUERY_DEFAULTS.tz): Zone {
  if (values.tz) return parseZone(values.tz, {});
  return values['date-from'] || values['date-to'] ? QUERY_DEFAULTS.tz : preferred;
}

/** Zone, order and page size as the URL gives them (defaults for anything unreadable): what a new search uses. */
export interface SearchSettings {
  tz: Zone;
  sort: CdrFieldKey;
  sortOrder: SortOrder;
  pageSize: PageSize;
}

export function settingsOf(values: PageUrlValues, preferredZone: Zone = QUERY_DEFAULTS.tz): SearchSettings {
  const order = values['sort-order']?.toLowerCase();
  const size = Number(values['page-size']);
  const sort = values.sort ?? '';
  return {
    tz: zoneOf(values, preferredZone),
    sort: isFieldKey(sort) ? sort : UPSTREAM_SORT,
    sortOrder: (SORT_ORDERS as readonly string[]).includes(order ?? '')
      ? (order as SortOrder)
      : QUERY_DEFAULTS.sortOrder,
    pageSize: (PAGE_SIZES as readonly number[]).includes(size) ? (size as PageSize) : QUERY_DEFAULTS.pageSize,
  };
}

/**
 * The page, at another page size, that holds the first row of `page` at `size` (page 3 of 25 is
 * rows 51–75: page 1 of 100), so a change of page size keeps the person where they were; at most
 * the last page there is.
 */
export function pageHoldingFirstRow(page: number, size: number, nextSize: number): number {
  return Math.min(MAX_PAGE, Math.floor(((page - 1) * size) / nextSize) + 1);
}

/** What the URL says has been searched. */
export type SearchState =
  /** No range in the URL: the form is shown, nothing is fetched (a search may cost a call). */
  | { kind: 'idle' }
  | { kind: 'invalid'; errors: FieldErrors }
  /** `key` is the canonical query string: the browser's cache key and the API request's query. */
  | { kind: 'ready'; query: TransactionsQuery; key: string };

export function searchStateOf(values: PageUrlValues): SearchState {
  if (!values['date-from'] && !values['date-to']) return { kind: 'idle' };
  const result = parseQuery({ get: (name: string) => values[name] ?? null });
  if (!result.ok) return { kind: 'invalid', errors: result.errors };
  return { kind: 'ready', query: result.query, key: queryKey(result.query) };
}

/**
 * A query as values for the URL setter: every parameter named, absent ones as null, so setting
 * them replaces the whole query instead of merging with the old one. The open row is closed.
 */
export function urlValuesOf(query: TransactionsQuery): Record<string, string | null> {
  const params = queryParams(query);
  return Object.fromEntries(PAGE_URL_PARAMS.map((name) => [name, params.get(name)]));
}

/** `/transactions?<canonical query>[&row=<trx_id>]`. */
export function pageHref(query: TransactionsQuery, row?: string): string {
  const params = queryParams(query);
  if (row) params.set(ROW_PARAM, row);
  return `${PAGE_PATHS.transactions}?${params.toString()}`;
}

/**
 * Maps a link of the API's answer (`/api/transactions?...`, which carries the whole query) to the
 * query it stands for, or null when it is not a query this page can show.
 */
export function queryOfApiHref(href: string): TransactionsQuery | null {
  let url: URL;
  try {
    url = new URL(href, 'http://link.invalid');
  } catch {
    return null;
  }
  const result = parseQuery(url.searchParams);
  return result.ok ? result.query : null;
}

/** The filters' values in the URL, for the form ("" for none). */
export function filterValuesOf(values: PageUrlValues): Record<FilterParam, string> {
  return Object.fromEntries(FILTERS.map((f) => [f.param, values[f.param] ?? ''])) as Record<FilterParam, string>;
}
