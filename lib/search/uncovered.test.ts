import { describe, expect, it } from 'vitest';
import { parseWallClock } from '../time/zones';
import { wholeRangeUncovered } from './uncovered';

const query = {
  from: parseWallClock('2026-11-18 00:00:00', 'JST')!,
  to: parseWallClock('2026-11-19 00:00:00', 'JST')!,
  tz: 'JST' as const,
};

describe('wholeRangeUncovered', () => {
  it('is true only when the one part not searched is the whole range', () => {
    expect(wholeRangeUncovered([{ dateFrom: '2026-11-18 00:00:00', dateTo: '2026-11-19 00:00:00' }], query)).toBe(true);
    expect(wholeRangeUncovered([{ dateFrom: '2026-11-18 09:00:00', dateTo: '2026-11-19 00:00:00' }], query)).toBe(
      false,
    );
    expect(
      wholeRangeUncovered(
        [
          { dateFrom: '2026-11-18 00:00:00', dateTo: '2026-11-18 06:00:00' },
          { dateFrom: '2026-11-18 09:00:00', dateTo: '2026-11-19 00:00:00' },
        ],
        query,
      ),
    ).toBe(false);
    expect(wholeRangeUncovered(undefined, query)).toBe(false);
  });
});
