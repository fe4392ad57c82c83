/** The planner of the local history's searches: which executor answers which shape (./search-plan.ts). */
import { describe, expect, it } from 'vitest';
import { FEW_FINDS, orderFromIndex, textFirst, wayOf } from './search-plan';
import type { LocalSearch } from './search-types';

const search = (over: Partial<LocalSearch>): LocalSearch => ({
  scope: 's',
  ranges: [{ from: 0, to: 1 }],
  where: [],
  order: 'desc',
  ...over,
});

describe('the planner of a local search', () => {
  it('counts by the rollups what they are kept by, and nothing else', () => {
    expect(wayOf(search({}), null)).toBe('rollups');
    expect(wayOf(search({ where: [{ column: 'status', op: '=', value: 'DELIVRD' }] }), null)).toBe('rollups');
    expect(wayOf(search({ sort: { column: 'price_units' } }), null)).toBe('rollups');
  });

  it('sends free text found many times, and bounds, to the day packs; a few finds, a number or another order to SQL', () => {
    expect(wayOf(search({ text: 'ご注文' }), FEW_FINDS + 1)).toBe('packs');
    expect(wayOf(search({ text: 'ご注文' }), FEW_FINDS)).toBe('sql');
    expect(wayOf(search({ where: [{ column: 'latency_ms', op: '>=', value: 60_000 }] }), null)).toBe('packs');
    expect(wayOf(search({ text: 'x', where: [{ column: 'to_address', op: '=', value: '81' }] }), 10_000)).toBe('sql');
    expect(wayOf(search({ text: 'ご注文', sort: { column: 'price_units' } }), 10_000)).toBe('sql');
    // A test asks every text of the packs.
    expect(wayOf(search({ text: 'x' }), 1, 0)).toBe('packs');
  });

  it('reads a few finds first, and many only when they are fewer than a fourth of the range', async () => {
    expect(await textFirst(FEW_FINDS, async () => 0)).toBe(true);
    expect(await textFirst(10_000, async () => 100_000)).toBe(true);
    expect(await textFirst(30_000, async () => 100_000)).toBe(false);
  });

  it('reads an order from its index when that reads fewer records than sorting the range', () => {
    // A year of 3,000,000: page 1 or 1000 of the whole year, page 1 of a month.
    expect(orderFromIndex(25, 3_000_000, 3_000_000)).toBe(true);
    expect(orderFromIndex(25_000, 3_000_000, 3_000_000)).toBe(true);
    expect(orderFromIndex(25, 250_000, 3_000_000)).toBe(true);
    // A day of a year: sorting its 8,000 records is cheaper than walking the year's index to page 100.
    expect(orderFromIndex(2_500, 8_000, 3_000_000)).toBe(false);
    expect(orderFromIndex(25, 0, 3_000_000)).toBe(false);
  });
});
