import { describe, expect, it } from 'vitest';
import type { SearchPlan } from './api';
import { PLAN_CACHE_RECHECK_MS, planQueryOptions } from './queries';

type Interval = (query: { state: { data: Partial<SearchPlan> | undefined } }) => number | false;

describe('the price of a search, before it is made', () => {
  it('is asked again while it says "from cache" (a cached page stops being fresh), and not otherwise', () => {
    const interval = planQueryOptions('date-from=x').refetchInterval as unknown as Interval;
    expect(interval({ state: { data: { source: 'cache' } } })).toBe(PLAN_CACHE_RECHECK_MS);
    expect(interval({ state: { data: { source: 'upstream' } } })).toBe(false);
    expect(interval({ state: { data: { source: 'history' } } })).toBe(false);
    expect(interval({ state: { data: undefined } })).toBe(false);
  });
});
