/**
 * The transactions page's URL: the API's own parameter names (so a page URL and an API URL carry
 * the same query) plus `row` for the open record. The URL is the state; this module turns it into
 * "what has been searched" and back, with the server's own parser (lib/query/transactions-query.ts)
 * as the only judge of validity.
 */
import { FILTERS, type FilterParam } from '@/lib/query/filters';
import {
  PAGE_SIZES,
  parseTransactionsQuery,
  QUERY_DEFAULTS,
  SORT_ORDERS,
  type PageSize,
  type SortOrder,
  transactionsQueryToParams,
  type FieldErrors,
  type TransactionsQuery,
} from '@/lib/query/transactions-query';
import { ZONES, type Zone } from '@/lib/time/zones';

export const TRANSACTIONS_PATH = '/transactions';
export const ROW_PARAM = 'row';

/** Every query parameter the page URL carries, in the canonical order of transactionsQueryToParams. */
export const QUERY_PARAMS = ['date-from', 'date-to', ...FILTERS.map((f) => f.param), 'tz', 'sort-order', 'page-size', 'page'] as const;
export type QueryParam = (typeof QUERY_PARAMS)[number];

export type PageUrlValues = Partial<Record<QueryParam | typeof ROW_PARAM, string | null>>;

/** The values as URLSearchParams (absent and empty values left out). */
export function toSearchParams(values: PageUrlValues): URLSearchParams {
  const params = new URLSearchParams();
  for (const name of QUERY_PARAMS) {
    const v = values[name];
    if (v !== null && v !== undefined && v !== '') params.set(name, v);
  }
  return params;
}

export function zoneOf(values: PageUrlValues): Zone {
  const tz = values.tz?.toUpperCase();
  return (ZONES as readonly string[]).includes(tz ?? '') ? (tz as Zone) : QUERY_DEFAULTS.tz;
}

/**
 * Zone, sort and page size as the URL gives them (defaults for anything unreadable): what a new
 * search from the form will use.
 */
export function settingsOf(values: PageUrlValues): { tz: Zone; sortOrder: SortOrder; pageSize: PageSize } {
  const sort = values['sort-order']?.toLowerCase();
  const size = Number(values['page-size']);
  return {
    tz: zoneOf(values),
    sortOrder: (SORT_ORDERS as readonly string[]).includes(sort ?? '') ? (sort as SortOrder) : QUERY_DEFAULTS.sortOrder,
    pageSize: (PAGE_SIZES as readonly number[]).includes(size) ? (size as PageSize) : QUERY_DEFAULTS.pageSize,
  };
}

/** What the URL says has been searched. */
export type SearchState =
  /** No range in the URL: the form is shown, nothing is fetched (a search costs a call). */
  | { kind: 'idle' }
  | { kind: 'invalid'; errors: FieldErrors }
  /** `key` is the canonical query string: the query cache's key and the API request's query. */
  | { kind: 'ready'; query: TransactionsQuery; key: string };

export function searchStateOf(values: PageUrlValues): SearchState {
  if (!values['date-from'] && !values['date-to']) return { kind: 'idle' };
  const result = parseTransactionsQuery(toSearchParams(values));
  if (!result.ok) return { kind: 'invalid', errors: result.errors };
  return { kind: 'ready', query: result.query, key: transactionsQueryToParams(result.query).toString() };
}

/**
 * A query as values for the URL setter: every parameter named, absent filters as null, so setting
 * them replaces the whole query instead of merging with the old one. The open row is closed.
 */
export function urlValuesOf(query: Omit<TransactionsQuery, 'from' | 'to'>): Required<PageUrlValues> {
  const params = transactionsQueryToParams(query);
  const values = Object.fromEntries(QUERY_PARAMS.map((name) => [name, params.get(name)])) as Record<QueryParam, string | null>;
  return { ...values, [ROW_PARAM]: null };
}

/** `/transactions?<canonical query>[&row=<trx_id>]`. */
export function pageHref(query: Omit<TransactionsQuery, 'from' | 'to'>, row?: string): string {
  const params = transactionsQueryToParams(query);
  if (row) params.set(ROW_PARAM, row);
  return `${TRANSACTIONS_PATH}?${params.toString()}`;
}

/**
 * Maps a link of the API's answer (`/api/transactions?...`, which carries the whole query) to the
 * query it stands for, normalised, or null when it is not a query this page can show.
 */
export function queryOfApiHref(href: string): TransactionsQuery | null {
  let url: URL;
  try {
    url = new URL(href, 'http://link.invalid');
  } catch {
    return null;
  }
  const result = parseTransactionsQuery(url.searchParams);
  return result.ok ? result.query : null;
}

/** A filter's value in the URL, for the form. */
export function filterValuesOf(values: PageUrlValues): Record<FilterParam, string> {
  return Object.fromEntries(FILTERS.map((f) => [f.param, values[f.param] ?? ''])) as Record<FilterParam, string>;
}
