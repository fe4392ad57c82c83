/**
 * What the search form holds before Search is pressed: the range (wall clocks in the page's zone)
 * and the filters. Nothing is fetched from a draft except its price (GET /api/plan); a search is
 * made only when the draft is committed to the URL.
 */
import { FILTERS, type FilterParam } from '@/lib/query/filters';
import {
  parseTransactionsQuery,
  type FieldErrors,
  type PageSize,
  type SortOrder,
  type TransactionsQuery,
} from '@/lib/query/transactions-query';
import type { Zone } from '@/lib/time/zones';
import { rezoneRange, type WallRange } from './range';

export interface SearchDraft {
  range: WallRange;
  filters: Record<FilterParam, string>;
}

export function emptyFilters(): Record<FilterParam, string> {
  return Object.fromEntries(FILTERS.map((f) => [f.param, ''])) as Record<FilterParam, string>;
}

export function draftOfQuery(query: Pick<TransactionsQuery, 'dateFrom' | 'dateTo' | 'filters'>): SearchDraft {
  return { range: { dateFrom: query.dateFrom, dateTo: query.dateTo }, filters: { ...emptyFilters(), ...query.filters } };
}

/** The same draft read in another zone: the range keeps its instants, its wall clocks change. */
export function rezoneDraft(draft: SearchDraft, from: Zone, to: Zone): SearchDraft {
  return { ...draft, range: rezoneRange(draft.range, from, to) };
}

export interface SearchSettings {
  tz: Zone;
  sortOrder: SortOrder;
  pageSize: PageSize;
}

/** The draft as the API's query parameters, on page 1. */
export function draftParams(draft: SearchDraft, settings: SearchSettings): URLSearchParams {
  const params = new URLSearchParams({ 'date-from': draft.range.dateFrom.trim(), 'date-to': draft.range.dateTo.trim() });
  for (const def of FILTERS) {
    const v = draft.filters[def.param].trim();
    if (v !== '') params.set(def.param, v);
  }
  params.set('tz', settings.tz);
  params.set('sort-order', settings.sortOrder);
  params.set('page-size', String(settings.pageSize));
  params.set('page', '1');
  return params;
}

/** The draft judged exactly as the server will judge it: a query to search, or what is wrong. */
export function checkDraft(
  draft: SearchDraft,
  settings: SearchSettings,
): { ok: true; query: TransactionsQuery } | { ok: false; errors: FieldErrors } {
  return parseTransactionsQuery(draftParams(draft, settings));
}

export function activeFilters(draft: SearchDraft): FilterParam[] {
  return FILTERS.map((f) => f.param).filter((p) => draft.filters[p].trim() !== '');
}
