/**
 * Which day the copy reads next, and how long a day with a problem rests: twice as long after each
 * rest, so a problem that does not pass does not spend the copy's share on the same days.
 */
import { describe, expect, it } from 'vitest';
import { startDay, type DayProgress } from './sync-day-progress';
import type { HistoryDay } from './store/history-store';
import { problemRetryAt, targetDay } from './sync-step';

const HOUR = 3_600_000;

function day(
  d: string,
  changes: Partial<HistoryDay<DayProgress>> = {},
  progress: Partial<DayProgress> = {},
): HistoryDay<DayProgress> {
  return {
    day: d,
    state: 'syncing',
    progress: { ...startDay(d), ...progress },
    records: 0,
    calls: 0,
    updatedAt: 0,
    completedAt: null,
    ...changes,
  };
}

describe('the copy’s next day', () => {
  it('rests a day with a problem 6 h, then twice as long after each rest, at most 96 h', () => {
    expect(
      [0, 1, 2, 4, 9].map((rests) => problemRetryAt(day('2026-11-01', {}, { problem: 'x', rests })) / HOUR),
    ).toEqual([6, 12, 24, 96, 96]);
  });

  it('is the newest day wanted that is neither complete, being built, nor resting', () => {
    const complete = new Set(['2026-11-04']);
    const unfinished = new Map([
      ['2026-11-03', day('2026-11-03', { state: 'building' })],
      ['2026-11-02', day('2026-11-02', { updatedAt: 0 }, { problem: 'short', rests: 1 })],
    ]);
    expect(targetDay(complete, unfinished, '2026-11-01', '2026-11-04', 11 * HOUR)).toBe('2026-11-01');
    // Its rest over (12 h after its second problem), the resting day comes first again.
    expect(targetDay(complete, unfinished, '2026-11-01', '2026-11-04', 12 * HOUR)).toBe('2026-11-02');
    // A day being read goes on before older ones; nothing left, nothing to read.
    unfinished.set('2026-11-03', day('2026-11-03'));
    expect(targetDay(complete, unfinished, '2026-11-01', '2026-11-04', 11 * HOUR)).toBe('2026-11-03');
    expect(targetDay(new Set(['2026-11-01', '2026-11-02']), new Map(), '2026-11-01', '2026-11-02', 0)).toBeNull();
  });
});
