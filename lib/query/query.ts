/**
 * THE dashboard query: one value, parsed and validated here once, and written out from here in
 * every form it travels in — the dashboard's URL and API query string (`queryParams`), a JSON body
 * (the same names), and the upstream's wire form (lib/query/wire.ts). The parameter names are the
 * upstream's (seed §4.1), so a page URL, an API URL and an upstream query read alike. Validation
 * happens before anything is spent, and each broken rule is reported against its parameter.
 */
import { isFieldKey, type CdrFieldKey } from '../cdr/fields';
import { halfWidth } from '../cdr/typed-text';
import { formatWallClock, parseWallClock, ZONES, type Zone } from '../time/zones';
import { FILTERS, filterProblem, type FilterParam, type Filters } from './filters';
import { DAY_MS } from '../time/units';
import { msg, type Words } from '../i18n/message';

export const PAGE_SIZES = [10, 25, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];
export const SORT_ORDERS = ['desc', 'asc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/** The upstream's longest range per query (seed §8); a search may span no more. */
export const SEARCH_MAX_RANGE_DAYS = 31;
/** An export is read as several upstream windows, so it may span a year. */
export const EXPORT_MAX_RANGE_DAYS = 366;
/** The longest range of one upstream query, in ms. */
export const SEARCH_MAX_RANGE_MS = SEARCH_MAX_RANGE_DAYS * DAY_MS;
/** The upstream's deepest page (seed §4.1), and the dashboard's. */
export const MAX_PAGE = 1000;

/** The upstream orders by received time; any other column needs the local history. */
export const UPSTREAM_SORT: CdrFieldKey = 'date_received';

/** Defaults where the seed is silent (documented in the README). */
export const QUERY_DEFAULTS = {
  page: 1,
  pageSize: 25 as PageSize,
  tz: 'UTC' as Zone,
  sortOrder: 'desc' as SortOrder,
  sort: UPSTREAM_SORT,
};

export interface TransactionsQuery {
  /** The range as instants (whole seconds), inclusive at both ends. */
  readonly from: Date;
  readonly to: Date;
  /** The zone times are read and shown in; the range's wall clocks are written in it. */
  readonly tz: Zone;
  readonly sortOrder: SortOrder;
  /** The column the whole result is ordered by (ties: received time, then trx_id). */
  readonly sort: CdrFieldKey;
  readonly page: number;
  readonly pageSize: PageSize;
  readonly filters: Filters;
}

/** A query without paging: what an export reads, or the part of a search that selects records. */
export type QuerySelection = Omit<TransactionsQuery, 'page' | 'pageSize'>;

/**
 * What is wrong, per parameter: Words by key (messages/<locale>/query.json), said in the reader's
 * language where they are shown (a problem's `errors`, the search form).
 */
export type FieldErrors = Record<string, Words>;

/**
 * An empty FieldErrors without a prototype: the name of an unknown parameter is a key here, and
 * `errors["__proto__"] = …` on a plain object sets its prototype, losing the error (the parameter
 * was then taken without a word).
 */
export function noFieldErrors(): FieldErrors {
  return Object.create(null) as FieldErrors;
}
export type ParseResult<Q = TransactionsQuery> = { ok: true; query: Q } | { ok: false; errors: FieldErrors };

/** Where parameters come from: a URL's search params, or a JSON body's object. */
export type QueryInput = { get(name: string): string | null } | Readonly<Record<string, unknown>>;

export interface ParseOptions {
  /** The longest range allowed (days): 31 for a search (the default), 366 for an export. */
  maxRangeDays?: number;
  /**
   * For the API's URLs: the parameters besides the query's that the caller reads itself (e.g.
   * `columns`). With it, any other parameter, and one given twice, is an error: a misspelt filter
   * would otherwise be a search without it, paid for with a call.
   */
  alsoAllowed?: readonly string[];
  /**
   * The enterprise the session is signed in for (the server's callers; undefined in the browser,
   * which does not know it). An account is its API key and enterprise: a key that reaches several,
   * signed in for one, may not read another through the enterprise-id filter (its records would be
   * served, cached and kept as this account's).
   */
  sessionEnterpriseId?: string | null;
  /** What "now" is (ms; default the clock): a range that starts after it is refused. */
  now?: number;
}

/**
 * How far after now a range may start: the browser's clock and the server's differ by a little, and
 * a person's "from now" should not be refused for a second's difference.
 */
const FUTURE_SLACK_MS = 5 * 60_000;
/** Received times are counted from 1970 (epoch milliseconds): nothing is earlier. */
const EARLIEST_MS = 0;

export const RANGE_PARAMS = ['date-from', 'date-to'] as const;
export const SETTING_PARAMS = ['tz', 'sort', 'sort-order', 'page-size', 'page'] as const;
/** Every parameter of the query, in the canonical order `queryParams` writes them. */
export const QUERY_PARAMS: readonly string[] = [...RANGE_PARAMS, ...FILTERS.map((f) => f.param), ...SETTING_PARAMS];

function isParamSource(input: QueryInput): input is { get(name: string): string | null } {
  return typeof (input as { get?: unknown }).get === 'function';
}

/** Reads one parameter as text; a JSON number is accepted as its digits, anything else is an error. */
function reader(input: QueryInput, errors: FieldErrors): (name: string) => string | null {
  if (isParamSource(input)) return (name) => input.get(name);
  return (name) => {
    const v = (input as Record<string, unknown>)[name];
    if (v === undefined || v === null) return null;
    if (typeof v === 'string') return v;
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
    errors[name] = msg('query.notString', { name });
    return null;
  };
}

function intParam(raw: string | null, name: string, min: number, max: number, errors: FieldErrors): number | undefined {
  if (raw === null || raw.trim() === '') return undefined;
  if (!/^\d+$/.test(raw.trim())) {
    errors[name] = msg('query.wholeNumber', { name, min, max, value: raw.slice(0, 20) });
    return undefined;
  }
  const n = Number(raw);
  if (n < min || n > max) {
    errors[name] = msg('query.outOfRange', { name, min, max, value: n });
    return undefined;
  }
  return n;
}

function oneOf<T extends string>(
  raw: string | null,
  allowed: readonly T[],
  normalise: (s: string) => string,
  fallback: T,
  onError: () => void,
): T {
  if (raw === null || raw.trim() === '') return fallback;
  const v = normalise(raw.trim());
  if ((allowed as readonly string[]).includes(v)) return v as T;
  onError();
  return fallback;
}

/** The one reading of `tz`: UTC or JST, any case; absent means UTC. A wrong value is put in `errors`. */
export function parseZone(raw: string | null | undefined, errors: FieldErrors): Zone {
  return oneOf(
    raw ?? null,
    ZONES,
    (s) => s.toUpperCase(),
    QUERY_DEFAULTS.tz,
    () => (errors.tz = msg('query.zone', { value: String(raw).slice(0, 20) })),
  );
}

/** Puts in `errors` each parameter of `params` not `allowed`, and each given more than once. */
export function unexpectedParams(params: URLSearchParams, allowed: readonly string[], errors: FieldErrors): void {
  for (const name of new Set(params.keys())) {
    const key = name.slice(0, 40);
    if (!allowed.includes(name)) {
      const near = closest(name, allowed);
      errors[key] = near ? msg('query.unknownNear', { name: key, near }) : msg('query.unknown', { name: key });
    } else if (params.getAll(name).length > 1) {
      errors[key] = msg('query.repeated', { name: key, count: params.getAll(name).length });
    }
  }
}

/**
 * The name of `names` within two edits of `name` (a letter added, dropped, changed or swapped), if
 * one is, and fewer edits than `name` has letters: any one- or two-letter name is two edits from
 * `q`, and "✓" is no misspelling of it.
 */
function closest(name: string, names: readonly string[]): string | undefined {
  const distance = (a: string, b: string): number => {
    let row = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      const next = [i];
      for (let j = 1; j <= b.length; j++)
        next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      row = next;
    }
    return row[b.length]!;
  };
  const lower = name.toLowerCase();
  return names
    .map((n) => ({ n, d: distance(lower, n) }))
    .filter((c) => c.d <= 2 && c.d < lower.length)
    .sort((x, y) => x.d - y.d)[0]?.n;
}

/** How a query is shown and paged, apart from what it selects: what a new search keeps of the last one. */
export type QuerySettings = Pick<TransactionsQuery, 'tz' | 'sort' | 'sortOrder' | 'pageSize'>;

/** The settings' rules, one place: each wrong value is put in `errors` and read as its default. */
function parseSettings(get: (name: string) => string | null, errors: FieldErrors): QuerySettings {
  const tz = parseZone(get('tz'), errors);
  const sortOrder = oneOf(
    get('sort-order'),
    SORT_ORDERS,
    (s) => s.toLowerCase(),
    QUERY_DEFAULTS.sortOrder,
    () => {
      errors['sort-order'] = msg('query.sortOrder', { value: String(get('sort-order')).slice(0, 20) });
    },
  );
  const sortRaw = get('sort')?.trim() ?? '';
  let sort: CdrFieldKey = QUERY_DEFAULTS.sort;
  if (sortRaw !== '') {
    if (isFieldKey(sortRaw)) sort = sortRaw;
    else errors.sort = msg('query.sort', { value: sortRaw.slice(0, 40) });
  }
  // One message whatever is wrong (200, 30, "abc"): the sizes there are.
  const sizeRaw = get('page-size')?.trim() ?? '';
  let pageSize: PageSize = QUERY_DEFAULTS.pageSize;
  if (sizeRaw !== '') {
    const size = PAGE_SIZES.find((n) => String(n) === sizeRaw);
    if (size !== undefined) pageSize = size;
    else errors['page-size'] = msg('query.pageSize', { sizes: PAGE_SIZES.join(', '), value: sizeRaw.slice(0, 20) });
  }
  return { tz, sort, sortOrder, pageSize };
}

/**
 * The settings of a query that may not be whole (a page URL without a range, or with a wrong one),
 * read by parseQuery's own rules, each unreadable value as its default: what a new search from that
 * page keeps.
 */
export function readSettings(input: QueryInput): QuerySettings {
  const ignored = noFieldErrors();
  return parseSettings(reader(input, ignored), ignored);
}

/** Parses and validates a query (URL params or a JSON body). Every broken rule is named by parameter. */
export function parseQuery(input: QueryInput, options: ParseOptions = {}): ParseResult {
  const errors = noFieldErrors();
  const get = reader(input, errors);
  const maxRangeDays = options.maxRangeDays ?? SEARCH_MAX_RANGE_DAYS;
  if (options.alsoAllowed && input instanceof URLSearchParams)
    unexpectedParams(input, [...QUERY_PARAMS, ...options.alsoAllowed], errors);

  const { tz, sort, sortOrder, pageSize } = parseSettings(get, errors);
  const page = intParam(get('page'), 'page', 1, MAX_PAGE, errors) ?? QUERY_DEFAULTS.page;

  const at: Partial<Record<(typeof RANGE_PARAMS)[number], Date>> = {};
  for (const name of RANGE_PARAMS) {
    const raw = get(name);
    if (raw === null || raw.trim() === '') {
      errors[name] ??= msg('query.required', { name });
      continue;
    }
    // Whether a wall clock is a real time does not depend on the zone (UTC stands in for a wrong one).
    const instant = parseWallClock(raw, tz);
    if (instant) at[name] = instant;
    else errors[name] = msg('query.dateInvalid', { name, value: raw.slice(0, 40) });
  }
  const from = at['date-from'];
  const to = at['date-to'];
  // No record can be in these: the upstream would answer an empty page for a call.
  if (from && from.getTime() > (options.now ?? Date.now()) + FUTURE_SLACK_MS) {
    errors['date-from'] = msg('query.future', { from: formatWallClock(from, tz), tz });
  } else if (from && from.getTime() < EARLIEST_MS) {
    errors['date-from'] = msg('query.beforeEpoch', { from: formatWallClock(from, tz) });
  }
  if (from && to) {
    if (to.getTime() <= from.getTime()) errors['date-to'] = msg('query.endBeforeStart');
    else if (to.getTime() - from.getTime() > maxRangeDays * DAY_MS) {
      errors['date-to'] = msg(maxRangeDays === SEARCH_MAX_RANGE_DAYS ? 'query.tooLongSearch' : 'query.tooLong', {
        days: maxRangeDays,
      });
    }
  }

  const filters: Filters = {};
  for (const def of FILTERS) {
    const raw = get(def.param);
    if (raw === null) continue;
    // A number typed on a Japanese keyboard (０９０－１２３４) is the number it shows.
    const typed = def.input === 'numeric' || def.input === 'decimal' ? halfWidth(raw).trim() : raw.trim();
    const value = def.normalise ? def.normalise(typed) : typed;
    if (value === '') continue;
    const problem = filterProblem(def, value);
    if (problem) errors[def.param] = problem;
    else filters[def.param] = value;
  }
  const ownEnterprise = options.sessionEnterpriseId;
  if (ownEnterprise && filters['enterprise-id'] !== undefined && filters['enterprise-id'] !== ownEnterprise) {
    errors['enterprise-id'] = msg('query.otherEnterprise', {
      own: ownEnterprise,
      asked: filters['enterprise-id'].slice(0, 40),
    });
  }
  if (filters['price-min'] && filters['price-max'] && Number(filters['price-min']) > Number(filters['price-max'])) {
    errors['price-max'] = msg('query.priceOrder');
  }

  if (Object.keys(errors).length > 0 || !from || !to) return { ok: false, errors };
  return { ok: true, query: { from, to, tz, sortOrder, sort, page, pageSize, filters } };
}

/** The range's wall clocks in the query's zone (`YYYY-MM-DD HH:MM:SS`), as the URL writes them. */
export function wallClocks(query: Pick<TransactionsQuery, 'from' | 'to' | 'tz'>): { dateFrom: string; dateTo: string } {
  return { dateFrom: formatWallClock(query.from, query.tz), dateTo: formatWallClock(query.to, query.tz) };
}

/**
 * The query as URL parameters, in one canonical order and with every part of it (range, zone,
 * sort, filters): the dashboard's URL, the API's query string, its links and the browser's cache
 * key are all this. Defaults are written too except `sort`, which appears only when it is not the
 * upstream's order.
 */
export function queryParams(
  query: QuerySelection & Partial<Pick<TransactionsQuery, 'page' | 'pageSize'>>,
): URLSearchParams {
  const { dateFrom, dateTo } = wallClocks(query);
  const params = new URLSearchParams();
  params.set('date-from', dateFrom);
  params.set('date-to', dateTo);
  for (const def of FILTERS) {
    const v = query.filters[def.param];
    if (v) params.set(def.param, v);
  }
  params.set('tz', query.tz);
  if (query.sort !== UPSTREAM_SORT) params.set('sort', query.sort);
  params.set('sort-order', query.sortOrder);
  if (query.pageSize !== undefined) params.set('page-size', String(query.pageSize));
  if (query.page !== undefined) params.set('page', String(query.page));
  return params;
}

/** The canonical query string (the browser's cache key and the API request of a search). */
export function queryKey(query: TransactionsQuery): string {
  return queryParams(query).toString();
}

/**
 * The query's JSON-body form: the URL's names and values (POST /api/exports takes it, an export job
 * answers its query in it, a script sends it back as it came).
 */
export type QueryBody = { 'date-from': string; 'date-to': string; tz: Zone; 'sort-order': SortOrder } & Partial<
  Record<FilterParam | 'sort' | 'page-size' | 'page', string>
>;

/** The query as a JSON body: the same names as the URL. */
export function queryBody(query: QuerySelection & Partial<Pick<TransactionsQuery, 'page' | 'pageSize'>>): QueryBody {
  return Object.fromEntries(queryParams(query)) as QueryBody;
}

/**
 * A body this dashboard wrote (an export job's query as the API answers it) read back as the query
 * it was written from, by the parser, with an export's reach; null for one that does not read.
 */
export function selectionOfBody(body: QueryBody): QuerySelection | null {
  const parsed = parseQuery(body, { maxRangeDays: EXPORT_MAX_RANGE_DAYS });
  if (!parsed.ok) return null;
  const { page: _page, pageSize: _pageSize, ...selection } = parsed.query;
  return selection;
}
