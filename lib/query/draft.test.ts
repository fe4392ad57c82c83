import { describe, expect, it } from 'vitest';
import { activeFilters, checkDraft, emptyFilters, rezoneDraft, type SearchDraft } from './draft';

const settings = { tz: 'JST', sort: 'date_received', sortOrder: 'desc', pageSize: 25 } as const;
const draft = (filters: Partial<SearchDraft['filters']> = {}): SearchDraft => ({
  range: { dateFrom: '2026-11-19 00:00:00', dateTo: '2026-11-20 00:00:00' },
  filters: { ...emptyFilters(), ...filters },
});

describe('the search draft', () => {
  it('is judged by the server’s own rules, per parameter', () => {
    const result = checkDraft(draft({ da: '12ab', network: '4401', status: 'DELIVRD' }), settings);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(Object.keys(result.errors).sort()).toEqual(['da', 'network']);
  });

  it('becomes a query on page 1 with trimmed filters', () => {
    const result = checkDraft(draft({ oa: '  SAKURA ' }), settings);
    expect(result.ok && result.query.filters).toEqual({ oa: 'SAKURA' });
    expect(result.ok && result.query.page).toBe(1);
  });

  it('keeps its instants when the zone changes', () => {
    expect(rezoneDraft(draft({ status: 'DELIVRD' }), 'JST', 'UTC')).toEqual({
      range: { dateFrom: '2026-11-18 15:00:00', dateTo: '2026-11-19 15:00:00' },
      filters: { ...emptyFilters(), status: 'DELIVRD' },
    });
  });

  it('lists its active filters', () => {
    expect(activeFilters(draft({ status: 'DELIVRD', oa: ' ' }))).toEqual(['status']);
  });
});
