/**
 * Strict reading of the query's parameters (seed §4.1). Every broken rule is reported against the
 * parameter that broke it, the way a client would need to see it to fix its request. The simulator
 * is deliberately stricter than a lenient server would be: the date format must be exactly
 * `YYYY-MM-DD HH:MM:SS`, values are case-sensitive, and a parameter given twice is an error.
 *
 * Decisions where the seed is silent (see README):
 * - defaults: page 1, page-size 25, tz UTC, sort-order asc (none = asc);
 * - page-size above the largest served (--max-page-size) is refused (400) or served at the largest
 *   (--page-size-over clamp);
 * - the range is inclusive at both ends: date-from <= date_received <= date-to, to the millisecond;
 * - exactly 31 days is allowed, a second more is not; date-to must be later than date-from;
 * - an empty value (`tz=`, as the links carry) means "not given"; an empty date is a missing date;
 * - status must be one of the known states; the other filters match exactly and an unknown value
 *   simply finds nothing.
 */
import { DELIVERY_STATUS_VALUES } from '../lib/cdr/status';
import { FILTERS, type FilterParam } from '../lib/query/filters';
import { parseWallClock, ZONES, type Zone } from '../lib/time/zones';
import type { RecordFilters } from './dataset';

export const MAX_RANGE_DAYS = 31;
export const MAX_RANGE_MS = MAX_RANGE_DAYS * 86_400_000;
export const MAX_PAGE = 1000;
export const DEFAULT_PAGE_SIZE = 25;
export const SORT_ORDERS = ['asc', 'desc', 'none'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

const STRICT_WALL_CLOCK = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
/** Generous: longer than any real value, short enough that nobody sends a novel. */
const MAX_FILTER_LENGTH = 256;

export interface QueryParams {
  /** date-from exactly as sent (after URL decoding); the links repeat it. */
  dateFrom: string;
  dateTo: string;
  from: number;
  to: number;
  tz: Zone;
  page: number;
  pageSize: number;
  sortOrder: SortOrder;
  /** enterprise-id as sent, or null when absent or empty. */
  enterpriseId: string | null;
  filters: RecordFilters;
}

export type ParamResult<T> = { ok: true; value: T } | { ok: false; param: string; message: string };

const fail = (param: string, message: string): { ok: false; param: string; message: string } => ({
  ok: false,
  param,
  message: `${param}: ${message}`,
});

const KNOWN = ['date-from', 'date-to', 'page', 'page-size', 'tz', 'sort-order', ...FILTERS.map((f) => f.param)];

/** A parameter's single value; null when absent or empty. */
function single(sp: URLSearchParams, name: string): string | null {
  const v = sp.get(name);
  return v === null || v === '' ? null : v;
}

export function parseTz(sp: URLSearchParams): ParamResult<Zone> {
  const raw = single(sp, 'tz');
  if (raw === null) return { ok: true, value: 'UTC' };
  if (!(ZONES as readonly string[]).includes(raw)) return fail('tz', `must be UTC or JST, got "${raw}"`);
  return { ok: true, value: raw as Zone };
}

function intParam(sp: URLSearchParams, name: string, min: number, max: number, fallback: number): ParamResult<number> {
  const raw = single(sp, name);
  if (raw === null) return { ok: true, value: fallback };
  if (!/^\d{1,9}$/.test(raw)) return fail(name, `must be a whole number from ${min} to ${max}, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) return fail(name, `must be from ${min} to ${max}, got ${n}`);
  return { ok: true, value: n };
}

function parseDate(
  sp: URLSearchParams,
  name: 'date-from' | 'date-to',
  tz: Zone,
): ParamResult<{ raw: string; at: number }> {
  const raw = single(sp, name);
  if (raw === null) return fail(name, 'is required, as YYYY-MM-DD HH:MM:SS');
  const at = STRICT_WALL_CLOCK.test(raw) ? parseWallClock(raw, tz) : null;
  if (!at) return fail(name, `must be a real date and time as YYYY-MM-DD HH:MM:SS, got "${raw}"`);
  return { ok: true, value: { raw, at: at.getTime() } };
}

/**
 * The largest page-size served, and what happens above it: `refuse` (400, naming the largest) or
 * `clamp` (the page served at the largest, saying so in page_size and the links, as an upstream
 * that quietly caps pages would).
 */
export interface PageSizeLimit {
  max: number;
  over: PageSizeOver;
}
export const PAGE_SIZE_OVER = ['refuse', 'clamp'] as const;
export type PageSizeOver = (typeof PAGE_SIZE_OVER)[number];

/** The largest page-size a clamping simulator still reads as a number (past it, a 400 as for any bad value). */
const CLAMP_READS_UP_TO = 1_000_000;

export function parseQueryParams(sp: URLSearchParams, limit: PageSizeLimit): ParamResult<QueryParams> {
  const maxPageSize = limit.max;
  for (const name of KNOWN) if (sp.getAll(name).length > 1) return fail(name, 'must be given at most once');

  const tz = parseTz(sp);
  if (!tz.ok) return tz;
  const from = parseDate(sp, 'date-from', tz.value);
  if (!from.ok) return from;
  const to = parseDate(sp, 'date-to', tz.value);
  if (!to.ok) return to;
  if (to.value.at <= from.value.at) return fail('date-to', 'must be later than date-from');
  if (to.value.at - from.value.at > MAX_RANGE_MS)
    return fail('date-to', `the date range must not exceed ${MAX_RANGE_DAYS} days`);

  const page = intParam(sp, 'page', 1, MAX_PAGE, 1);
  if (!page.ok) return page;
  const accepted = limit.over === 'clamp' ? Math.max(maxPageSize, CLAMP_READS_UP_TO) : maxPageSize;
  const pageSize = intParam(sp, 'page-size', 1, accepted, Math.min(DEFAULT_PAGE_SIZE, maxPageSize));
  if (!pageSize.ok) return pageSize;

  const sortRaw = single(sp, 'sort-order') ?? 'none';
  if (!(SORT_ORDERS as readonly string[]).includes(sortRaw))
    return fail('sort-order', `must be asc, desc or none, got "${sortRaw}"`);

  const filters: RecordFilters = {};
  for (const def of FILTERS) {
    const value = single(sp, def.param);
    if (value === null || def.param === 'enterprise-id') continue;
    if (value.length > MAX_FILTER_LENGTH) return fail(def.param, `must be at most ${MAX_FILTER_LENGTH} characters`);
    if (def.param === 'status' && !(DELIVERY_STATUS_VALUES as readonly string[]).includes(value)) {
      return fail('status', `must be one of ${DELIVERY_STATUS_VALUES.join(', ')}, got "${value}"`);
    }
    filters[def.param as Exclude<FilterParam, 'enterprise-id'>] = value;
  }
  const enterpriseId = single(sp, 'enterprise-id');
  if (enterpriseId !== null && enterpriseId.length > MAX_FILTER_LENGTH)
    return fail('enterprise-id', `must be at most ${MAX_FILTER_LENGTH} characters`);

  return {
    ok: true,
    value: {
      dateFrom: from.value.raw,
      dateTo: to.value.raw,
      from: from.value.at,
      to: to.value.at,
      tz: tz.value,
      page: page.value,
      pageSize: Math.min(pageSize.value, maxPageSize),
      sortOrder: sortRaw as SortOrder,
      enterpriseId,
      filters,
    },
  };
}
