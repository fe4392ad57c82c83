/**
 * A search's ranges cut at UTC midnights into what the day packs answer and what SQL reads, each
 * SQL part placed before, between or after the packed ones (a page in time order is put together
 * from them in that order).
 */
import { describe, expect, it } from 'vitest';
import { utcDayOf } from '../../time/zone-days';
import { packPlan, utcDaysOf } from './pack-plan';

const DAY = 86_400_000;
const D1 = Date.parse('2026-10-01T00:00:00Z');

describe('the day packs’ plan', () => {
  it('names the UTC days a range touches, its last instant included', () => {
    expect(utcDaysOf([{ from: D1 + 5, to: D1 + 2 * DAY }])).toEqual(['2026-10-01', '2026-10-02', '2026-10-03']);
    expect(
      utcDaysOf([
        { from: D1 - 1, to: D1 },
        { from: D1 + 10, to: D1 + 20 },
      ]),
    ).toEqual(['2026-09-30', '2026-10-01']);
    expect(utcDayOf(D1 + DAY - 1)).toBe('2026-10-01');
  });

  it('gives complete days to their packs and the next day’s first instant to SQL, after them', () => {
    const plan = packPlan([{ from: D1, to: D1 + 2 * DAY }], new Set(['2026-10-01', '2026-10-02']));
    expect(plan).toEqual({
      packed: [{ from: D1, to: D1 + 2 * DAY - 1 }],
      before: [],
      between: [],
      after: [{ from: D1 + 2 * DAY, to: D1 + 2 * DAY }],
    });
  });

  it('places what the packs do not hold before, between or after them', () => {
    const ranges = [{ from: D1 + 9 * 3600_000, to: D1 + 4 * DAY + 3600_000 }];
    const plan = packPlan(ranges, new Set(['2026-10-02', '2026-10-04']));
    expect(plan.before).toEqual([{ from: D1 + 9 * 3600_000, to: D1 + DAY - 1 }]);
    expect(plan.packed).toEqual([
      { from: D1 + DAY, to: D1 + 2 * DAY - 1 },
      { from: D1 + 3 * DAY, to: D1 + 4 * DAY - 1 },
    ]);
    expect(plan.between).toEqual([{ from: D1 + 2 * DAY, to: D1 + 3 * DAY - 1 }]);
    expect(plan.after).toEqual([{ from: D1 + 4 * DAY, to: D1 + 4 * DAY + 3600_000 }]);
  });

  it('leaves everything to SQL when no day has a pack', () => {
    const ranges = [{ from: D1, to: D1 + DAY + 5 }];
    expect(packPlan(ranges, new Set())).toEqual({ packed: [], before: ranges, between: [], after: [] });
  });
});
