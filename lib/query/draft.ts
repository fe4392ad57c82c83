/**
 * The query's draft form: what the search form holds before Search (or Show) is pressed — the range
 * as two wall clocks in the page's zone and each filter as typed. Nothing is fetched for a draft but
 * its price (GET /api/plan); it becomes a query only by the one parser (checkDraft), exactly as the
 * server will judge it, and a query becomes a draft only here (draftOfQuery).
 */
import { rezoneWallClock, type Zone } from '../time/zones';
import { FILTERS, type FilterParam } from './filters';
import { searchStateOf, type PageUrlValues, type SearchState } from './page-url';
import { parseQuery, wallClocks, type ParseResult, type QuerySettings, type TransactionsQuery } from './query';

/** A range as the picker holds it: two wall clocks (`YYYY-MM-DD HH:MM:SS`) in the page's zone, as typed. */
export interface WallRange {
  dateFrom: string;
  dateTo: string;
}

export interface SearchDraft {
  range: WallRange;
  filters: Record<FilterParam, string>;
}

export function emptyFilters(): Record<FilterParam, string> {
  return Object.fromEntries(FILTERS.map((f) => [f.param, ''])) as Record<FilterParam, string>;
}

export function draftOfQuery(query: TransactionsQuery): SearchDraft {
  const { dateFrom, dateTo } = wallClocks(query);
  return { range: { dateFrom, dateTo }, filters: { ...emptyFilters(), ...query.filters } };
}

/**
 * The page URL's search as a draft: its query when it reads; a URL the parser refuses, as it holds
 * it (the person fixes the value that is wrong); `fallback`, the range offered, for a URL without one.
 */
export function draftOfUrl(values: PageUrlValues, fallback: WallRange): SearchDraft {
  const search = searchStateOf(values);
  if (search.kind === 'ready') return draftOfQuery(search.query);
  const range =
    search.kind === 'idle' ? fallback : { dateFrom: values['date-from'] ?? '', dateTo: values['date-to'] ?? '' };
  const filters = emptyFilters();
  for (const f of FILTERS) filters[f.param] = values[f.param] ?? '';
  return { range, filters };
}

/**
 * Which search the URL holds, by its instants and filters: the form follows the URL when this
 * changes, and a change of zone alone (the same instants) keeps what the person typed.
 */
export function draftKeyOf(values: PageUrlValues, search: SearchState = searchStateOf(values)): string {
  const filters = JSON.stringify(FILTERS.map((f) => values[f.param] ?? ''));
  if (search.kind === 'ready')
    return `ready|${search.query.from.toISOString()}|${search.query.to.toISOString()}|${filters}`;
  return `${search.kind}|${values['date-from'] ?? ''}|${values['date-to'] ?? ''}|${filters}`;
}

export function rezoneRange(range: WallRange, from: Zone, to: Zone): WallRange {
  return { dateFrom: rezoneWallClock(range.dateFrom, from, to), dateTo: rezoneWallClock(range.dateTo, from, to) };
}

/** The same draft read in another zone: the range keeps its instants, its wall clocks change. */
export function rezoneDraft(draft: SearchDraft, from: Zone, to: Zone): SearchDraft {
  return { ...draft, range: rezoneRange(draft.range, from, to) };
}

/**
 * The draft judged exactly as the server will judge it, as page 1 of a search with `settings` (the
 * page's zone, order and size): a query, or what is wrong per parameter.
 */
export function checkDraft(draft: SearchDraft, settings: QuerySettings): ParseResult {
  return parseQuery({
    'date-from': draft.range.dateFrom,
    'date-to': draft.range.dateTo,
    ...draft.filters,
    tz: settings.tz,
    sort: settings.sort,
    'sort-order': settings.sortOrder,
    'page-size': settings.pageSize,
    page: 1,
  });
}

export function activeFilters(draft: SearchDraft): FilterParam[] {
  return FILTERS.map((f) => f.param).filter((p) => draft.filters[p].trim() !== '');
}
