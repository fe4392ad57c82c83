/**
 * The dashboard's query: the upstream's parameter names (seed §4.1), validated the same way in the
 * route handlers, the page's URL state and the export form. Validation happens before any upstream
 * call, and each broken rule is reported against its parameter.
 */
import { formatWallClock, parseWallClock, ZONES, type Zone } from '../time/zones';
import { FILTERS, filterProblem, type Filters } from './filters';

export const PAGE_SIZES = [10, 25, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];
export const SORT_ORDERS = ['desc', 'asc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

export const MAX_RANGE_DAYS = 31;
export const MAX_RANGE_MS = MAX_RANGE_DAYS * 24 * 3600 * 1000;
export const MAX_PAGE = 1000;

/** Defaults where the seed is silent (documented in the README). */
export const QUERY_DEFAULTS = { page: 1, pageSize: 25 as PageSize, tz: 'UTC' as Zone, sortOrder: 'desc' as SortOrder };

export interface TransactionsQuery {
  /** Wall-clock values as given, in `tz`. */
  dateFrom: string;
  dateTo: string;
  /** The same range as instants. */
  from: Date;
  to: Date;
  page: number;
  pageSize: PageSize;
  tz: Zone;
  sortOrder: SortOrder;
  filters: Filters;
}

export type FieldErrors = Record<string, string>;
export type ParseResult = { ok: true; query: TransactionsQuery } | { ok: false; errors: FieldErrors };

type ParamSource = { get(name: string): string | null };

function intParam(raw: string | null, name: string, min: number, max: number, errors: FieldErrors): number | undefined {
  if (raw === null || raw === '') return undefined;
  if (!/^\d+$/.test(raw)) {
    errors[name] = `${name} must be a whole number from ${min} to ${max}; got "${raw}".`;
    return undefined;
  }
  const n = Number(raw);
  if (n < min || n > max) {
    errors[name] = `${name} must be from ${min} to ${max}; got ${n}.`;
    return undefined;
  }
  return n;
}

/** Parses and validates the query from URL search params (or anything with `get`). */
export function parseTransactionsQuery(params: ParamSource): ParseResult {
  const errors: FieldErrors = {};

  const tzRaw = params.get('tz');
  let tz: Zone = QUERY_DEFAULTS.tz;
  if (tzRaw !== null && tzRaw !== '') {
    const upper = tzRaw.toUpperCase();
    if ((ZONES as readonly string[]).includes(upper)) tz = upper as Zone;
    else errors.tz = `tz must be UTC or JST; got "${tzRaw}".`;
  }

  const sortRaw = params.get('sort-order');
  let sortOrder: SortOrder = QUERY_DEFAULTS.sortOrder;
  if (sortRaw !== null && sortRaw !== '') {
    const lower = sortRaw.toLowerCase();
    if ((SORT_ORDERS as readonly string[]).includes(lower)) sortOrder = lower as SortOrder;
    else errors['sort-order'] = `sort-order must be asc or desc; got "${sortRaw}".`;
  }

  const page = intParam(params.get('page'), 'page', 1, MAX_PAGE, errors) ?? QUERY_DEFAULTS.page;
  const pageSizeRaw = intParam(params.get('page-size'), 'page-size', 1, 100, errors);
  let pageSize: PageSize = QUERY_DEFAULTS.pageSize;
  if (pageSizeRaw !== undefined) {
    if ((PAGE_SIZES as readonly number[]).includes(pageSizeRaw)) pageSize = pageSizeRaw as PageSize;
    else errors['page-size'] = `page-size must be one of ${PAGE_SIZES.join(', ')}; got ${pageSizeRaw}.`;
  }

  const dates: Partial<Record<'date-from' | 'date-to', { raw: string; at: Date }>> = {};
  for (const name of ['date-from', 'date-to'] as const) {
    const raw = params.get(name);
    if (raw === null || raw.trim() === '') {
      errors[name] = `${name} is required, as YYYY-MM-DD HH:MM:SS.`;
      continue;
    }
    // Only parse once the zone is known to be valid, so the error is about the date, not the zone.
    const at = parseWallClock(raw, tz);
    if (!at) errors[name] = `${name} must be a real date and time as YYYY-MM-DD HH:MM:SS; got "${raw}".`;
    else dates[name] = { raw, at };
  }
  const fromD = dates['date-from'];
  const toD = dates['date-to'];
  if (fromD && toD) {
    if (toD.at.getTime() <= fromD.at.getTime()) {
      errors['date-to'] = 'date-to must be later than date-from.';
    } else if (toD.at.getTime() - fromD.at.getTime() > MAX_RANGE_MS) {
      errors['date-to'] = `The range may span at most ${MAX_RANGE_DAYS} days; shorten it or split it into several searches.`;
    }
  }

  const filters: Filters = {};
  for (const def of FILTERS) {
    const raw = params.get(def.param);
    if (raw === null) continue;
    const value = raw.trim();
    if (value === '') continue;
    const problem = filterProblem(def, value);
    if (problem) errors[def.param] = problem;
    else filters[def.param] = value;
  }

  if (Object.keys(errors).length > 0 || !fromD || !toD) return { ok: false, errors };
  return {
    ok: true,
    query: {
      dateFrom: formatWallClock(fromD.at, tz),
      dateTo: formatWallClock(toD.at, tz),
      from: fromD.at,
      to: toD.at,
      page,
      pageSize,
      tz,
      sortOrder,
      filters,
    },
  };
}

/**
 * Writes a query back as URL parameters, in one canonical order, with the whole query (range, zone,
 * sort, filters): the dashboard's links never lose what the upstream's links drop.
 */
export function transactionsQueryToParams(
  query: Omit<TransactionsQuery, 'from' | 'to'>,
  overrides: Partial<Pick<TransactionsQuery, 'page' | 'pageSize' | 'tz'>> = {},
): URLSearchParams {
  const q = { ...query, ...overrides };
  const params = new URLSearchParams();
  params.set('date-from', q.dateFrom);
  params.set('date-to', q.dateTo);
  for (const def of FILTERS) {
    const v = q.filters[def.param];
    if (v) params.set(def.param, v);
  }
  params.set('tz', q.tz);
  params.set('sort-order', q.sortOrder);
  params.set('page-size', String(q.pageSize));
  params.set('page', String(q.page));
  return params;
}
