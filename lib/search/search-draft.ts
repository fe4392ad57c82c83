/**
 * What the search form holds before Search is pressed: the range (wall clocks in the page's zone)
 * and the filters, as typed. Nothing is fetched from a draft except its price (GET /api/plan); a
 * search is made only when the draft, judged by the one query parser, is committed to the URL.
 */
import { FILTERS, type FilterParam } from '../query/filters';
import { parseQuery, wallClocks, type ParseResult, type TransactionsQuery } from '../query/query';
import type { Zone } from '../time/zones';
import { rezoneRange, type WallRange } from './range';
import type { SearchSettings } from './url-state';

export interface SearchDraft {
  range: WallRange;
  filters: Record<FilterParam, string>;
}

export function emptyFilters(): Record<FilterParam, string> {
  return Object.fromEntries(FILTERS.map((f) => [f.param, ''])) as Record<FilterParam, string>;
}

export function draftOfQuery(query: TransactionsQuery): SearchDraft {
  return { range: wallClocks(query), filters: { ...emptyFilters(), ...query.filters } };
}

/** The same draft read in another zone: the range keeps its instants, its wall clocks change. */
export function rezoneDraft(draft: SearchDraft, from: Zone, to: Zone): SearchDraft {
  return { ...draft, range: rezoneRange(draft.range, from, to) };
}

/** The draft judged exactly as the server will judge it, as page 1 of a search: a query, or what is wrong. */
export function checkDraft(draft: SearchDraft, settings: SearchSettings): ParseResult {
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
