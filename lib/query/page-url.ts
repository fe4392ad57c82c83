/**
 * The query's page-URL form: /transactions and /insights carry the query's own parameters (so a
 * page URL and an API URL read alike) plus `row`, the open record. Read here with the one parser
 * (./query.ts) and written here from a query: the views change their URL only through these
 * (lib/search/use-search-url.ts), never by patching parameters.
 */
import { API_PATHS, PAGE_PATHS } from '../http/paths';
import { rezoneWallClock, type Zone } from '../time/zones';
import {
  MAX_PAGE,
  parseQuery,
  parseZone,
  QUERY_DEFAULTS,
  QUERY_PARAMS,
  queryKey,
  queryParams,
  RANGE_PARAMS,
  readSettings,
  type FieldErrors,
  type QuerySettings,
  type TransactionsQuery,
} from './query';

export const ROW_PARAM = 'row';
/** Every parameter the page URL carries. */
export const PAGE_URL_PARAMS = [...QUERY_PARAMS, ROW_PARAM] as const;

/**
 * A URL's parameters laid out in the codec's order (the query's, as `queryParams` writes them, then
 * `row`, then any others as they came): whatever was written last, the address bar reads as a query
 * written whole, the same for the same view. Given to nuqs's adapter (app/providers.tsx), which
 * otherwise keeps a parameter where it first appeared and adds new ones at the end.
 */
export function inPageUrlOrder(params: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams();
  for (const name of PAGE_URL_PARAMS) for (const value of params.getAll(name)) out.append(name, value);
  for (const [name, value] of params)
    if (!(PAGE_URL_PARAMS as readonly string[]).includes(name)) out.append(name, value);
  return out;
}

/** The page URL's parameters by name (nuqs's values: absent is null). */
export type PageUrlValues = Partial<Record<string, string | null>>;

const sourceOf = (values: PageUrlValues) => ({ get: (name: string) => values[name] ?? null });
const namesRange = (values: PageUrlValues) => Boolean(values['date-from'] || values['date-to']);

/**
 * The zone a page URL is read in: its `tz`; without one, a URL that names a range is read as the API
 * reads it (UTC, the upstream's default), and a bare page link opens in `preferred`, the zone the
 * person last picked (./zone-preference.ts).
 */
export function zoneOf(values: PageUrlValues, preferred: Zone = QUERY_DEFAULTS.tz): Zone {
  if (values.tz) return parseZone(values.tz, {});
  return namesRange(values) ? QUERY_DEFAULTS.tz : preferred;
}

/** What the URL says has been searched. */
export type SearchState =
  /** No range in the URL: the form is shown, nothing is fetched (a search may cost a call). */
  | { kind: 'idle' }
  | { kind: 'invalid'; errors: FieldErrors }
  /** `key` is the canonical query string: the browser's cache key and the API request's query. */
  | { kind: 'ready'; query: TransactionsQuery; key: string };

export function searchStateOf(values: PageUrlValues): SearchState {
  if (!namesRange(values)) return { kind: 'idle' };
  const result = parseQuery(sourceOf(values));
  if (!result.ok) return { kind: 'invalid', errors: result.errors };
  return { kind: 'ready', query: result.query, key: queryKey(result.query) };
}

/**
 * Zone, order and page size as the URL gives them, by the parser's own rules (an unreadable value
 * is its default): what a new search from this page keeps. Its zone is the page's (zoneOf).
 */
export function pageSettingsOf(values: PageUrlValues, preferredZone: Zone = QUERY_DEFAULTS.tz): QuerySettings {
  return { ...readSettings(sourceOf(values)), tz: zoneOf(values, preferredZone) };
}

/** A page URL read whole: what has been searched, the settings a new search keeps, the open row. */
export interface PageUrl {
  search: SearchState;
  settings: QuerySettings;
  row: string | null;
}

export function readPageUrl(values: PageUrlValues, preferredZone: Zone = QUERY_DEFAULTS.tz): PageUrl {
  const search = searchStateOf(values);
  const settings =
    search.kind === 'ready'
      ? {
          tz: search.query.tz,
          sort: search.query.sort,
          sortOrder: search.query.sortOrder,
          pageSize: search.query.pageSize,
        }
      : pageSettingsOf(values, preferredZone);
  return { search, settings, row: values[ROW_PARAM] || null };
}

/**
 * A query as values for the URL setter: every parameter named, absent ones as null, so setting
 * them replaces the whole query instead of merging with the old one; the open row is `row` (closed
 * by default: a new search, page, order or size shows other rows).
 */
export function urlValuesOf(query: TransactionsQuery, row: string | null = null): Record<string, string | null> {
  const params = queryParams(query);
  return Object.fromEntries(PAGE_URL_PARAMS.map((name) => [name, name === ROW_PARAM ? row : params.get(name)]));
}

/**
 * The URL moved to another zone, its instants kept: a URL that holds a query is that query written
 * in `to` (the open row stays open); one that does not yet (a link with a wrong value) keeps what it
 * holds, its range's readable ends rewritten, so the person fixes the same instants in the new zone.
 */
export function rezonedUrlValues(values: PageUrlValues, from: Zone, to: Zone): PageUrlValues {
  const search = searchStateOf(values);
  if (search.kind === 'ready') return urlValuesOf({ ...search.query, tz: to }, values[ROW_PARAM] ?? null);
  const out: PageUrlValues = { tz: to };
  for (const name of RANGE_PARAMS) {
    const value = values[name];
    if (value) out[name] = rezoneWallClock(value, from, to);
  }
  return out;
}

/**
 * The page, at another page size, that holds the first row of `page` at `size` (page 3 of 25 is
 * rows 51–75: page 1 of 100), so a change of page size keeps the person where they were; at most
 * the last page there is.
 */
export function pageHoldingFirstRow(page: number, size: number, nextSize: number): number {
  return Math.min(MAX_PAGE, Math.floor(((page - 1) * size) / nextSize) + 1);
}

/** `/transactions?<canonical query>[&row=<trx_id>]`. */
export function pageHref(query: TransactionsQuery, row?: string): string {
  const params = queryParams(query);
  if (row) params.set(ROW_PARAM, row);
  return `${PAGE_PATHS.transactions}?${params.toString()}`;
}

/** `/api/transactions?<canonical query>`: the API's link of a query, as an answer's links are written. */
export function apiHref(query: TransactionsQuery): string {
  return `${API_PATHS.transactions}?${queryParams(query).toString()}`;
}

/**
 * The query a link of the API's answer (`/api/transactions?...`, which carries the whole query)
 * stands for, or null when it is not a query this page can show.
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
