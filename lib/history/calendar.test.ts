import { describe, expect, it } from 'vitest';
import type { HistoryDay } from './api';
import { calendarMonths, dayTally, weekdayColumns } from './calendar';

const day = (d: string, state: HistoryDay['state'] = 'complete', records = 10): HistoryDay => ({
  day: d,
  state,
  records,
});

/** A month's grid as text: day numbers, `.` for a date outside the answer, `_` for padding. */
function picture(weeks: ReturnType<typeof calendarMonths>[number]['weeks']): string[] {
  return weeks.map((w) => w.map((c) => (c === null ? '_' : c.entry ? String(c.dayOfMonth) : '.')).join(' '));
}

describe('the calendar of the local history', () => {
  it('lays a month out in weeks, Monday first, padding the neighbouring months', () => {
    // 1 November 2026 is a Sunday: six blanks before it; 30 November a Monday.
    const days = ['2026-11-28', '2026-11-29', '2026-11-30', '2026-11-01', '2026-11-02'].map((d) => day(d));
    const [month] = calendarMonths(days);
    expect(month!.key).toBe('2026-11');
    expect([month!.year, month!.month]).toEqual([2026, 11]);
    expect(picture(month!.weeks)).toEqual([
      '_ _ _ _ _ _ 1',
      '2 . . . . . .',
      '. . . . . . .',
      '. . . . . . .',
      '. . . . . 28 29',
      '30 _ _ _ _ _ _',
    ]);
    expect(month!.weeks.flat().find((c) => c?.day === '2026-11-28')?.entry).toEqual(day('2026-11-28'));
  });

  it('gives every month from the first day to the last, newest first, across a new year', () => {
    const days = [day('2027-02-03'), day('2026-11-30'), day('2027-01-15')];
    expect(calendarMonths(days).map((m) => m.key)).toEqual(['2027-02', '2027-01', '2026-12', '2026-11']);
    // A month without a day of the answer is drawn (every date outside), not left out: the grid has no holes.
    const december = calendarMonths(days)[2]!;
    expect(december.weeks.flat().filter((c) => c?.entry)).toEqual([]);
    expect(december.weeks.flat().filter((c) => c !== null)).toHaveLength(31);
  });

  it('knows February of a leap year and a month that starts on a Monday', () => {
    // 1 February 2028 is a Tuesday; 2028 is a leap year, so the 29th is a Tuesday too.
    expect(picture(calendarMonths([day('2028-02-01'), day('2028-02-29')])[0]!.weeks)).toEqual([
      '_ 1 . . . . .',
      '. . . . . . .',
      '. . . . . . .',
      '. . . . . . .',
      '. 29 _ _ _ _ _',
    ]);
    // 1 March 2027 is a Monday: no padding before it.
    expect(picture(calendarMonths([day('2027-03-01')])[0]!.weeks)[0]).toBe('1 . . . . . .');
  });

  it('starts weeks on Sunday for a Japanese reader, as ja-JP calendars do', () => {
    // 1 November 2026 is a Sunday: the first cell of a Sunday-first grid; 30 November a Monday.
    const days = ['2026-11-01', '2026-11-30'].map((d) => day(d));
    expect(picture(calendarMonths(days, 0)[0]!.weeks)).toEqual([
      '1 . . . . . .',
      '. . . . . . .',
      '. . . . . . .',
      '. . . . . . .',
      '. 30 _ _ _ _ _',
    ]);
    // 1 February 2028 is a Tuesday: two blanks (Sunday, Monday) before it.
    expect(picture(calendarMonths([day('2028-02-01')], 0)[0]!.weeks)[0]).toBe('_ _ 1 . . . .');
    expect(weekdayColumns(0)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(weekdayColumns(1)).toEqual([1, 2, 3, 4, 5, 6, 0]);
  });

  it('draws nothing for no days, and ignores a day that is not one', () => {
    expect(calendarMonths([])).toEqual([]);
    expect(calendarMonths([day('2026-02-30'), day('2026-03-02')]).map((m) => m.key)).toEqual(['2026-03']);
  });

  it('counts the settled days copied, leaving out the days not settled yet', () => {
    const days = [
      day('2026-11-20', 'unsettled', 0),
      day('2026-11-19', 'unsettled', 0),
      day('2026-11-18', 'syncing', 40),
      day('2026-11-17', 'complete'),
      day('2026-11-16', 'pending', 0),
    ];
    expect(dayTally(days)).toEqual({ complete: 1, settled: 3, unsettled: 2 });
  });
});
