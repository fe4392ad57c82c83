/**
 * The History page's calendar, worked out from GET /api/history's days: UTC months as grids of
 * weeks (from the reader's locale's first day: Sunday in Japanese, Monday in English), newest month
 * first, so what is being copied now is at the top; and how far the copy has come in days. Pure, so
 * the grid can be pinned by tests without a browser.
 */
import type { HistoryDay } from './api';
import { dayStart } from './days';

/** A date of the month on screen; `entry` is null for a date outside the days the answer covers. */
export interface CalendarDate {
  day: string;
  dayOfMonth: number;
  entry: HistoryDay | null;
}

export interface CalendarMonth {
  /** YYYY-MM */
  key: string;
  year: number;
  /** 1 (January) to 12: the page names it in its language (history.calendar.month). */
  month: number;
  /** Rows of 7 cells from the week's first day; null pads the days of the neighbouring months. */
  weeks: (CalendarDate | null)[][];
}

/** The week's first day: 0 Sunday (ja-JP's calendars), 1 Monday (ISO 8601's). */
export type WeekStart = 0 | 1;

/** A weekday as Date.getUTCDay() counts it: 0 Sunday … 6 Saturday. */
export type Weekday = 0 | 1 | 2 | 3 | 4 | 5 | 6;

/** The weekdays of the columns in order, from the week's first day. */
export function weekdayColumns(weekStartsOn: WeekStart): Weekday[] {
  return Array.from({ length: 7 }, (_, i) => ((weekStartsOn + i) % 7) as Weekday);
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/** One month's grid; `byDay` holds the days the answer covers. */
function monthGrid(
  year: number,
  month: number,
  byDay: ReadonlyMap<string, HistoryDay>,
  weekStartsOn: WeekStart,
): CalendarMonth {
  const key = `${year}-${pad(month + 1)}`;
  // getUTCDay: Sunday 0 … Saturday 6; the blanks before the 1st, counted from the week's first day.
  const lead = (new Date(Date.UTC(year, month, 1)).getUTCDay() - weekStartsOn + 7) % 7;
  const cells: (CalendarDate | null)[] = Array.from({ length: lead }, () => null);
  for (let d = 1, n = daysInMonth(year, month); d <= n; d++) {
    const day = `${key}-${pad(d)}`;
    cells.push({ day, dayOfMonth: d, entry: byDay.get(day) ?? null });
  }
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks: (CalendarDate | null)[][] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return { key, year, month: month + 1, weeks };
}

/**
 * The months that hold `days` (any order), newest month first; none for no days. Weeks start on
 * the reader's locale's first day (lib/i18n/format.ts WEEK_STARTS_ON), Monday unless said.
 */
export function calendarMonths(days: readonly HistoryDay[], weekStartsOn: WeekStart = 1): CalendarMonth[] {
  const valid = days.filter((d) => dayStart(d.day) !== null);
  if (valid.length === 0) return [];
  const byDay = new Map(valid.map((d) => [d.day, d]));
  const sorted = [...byDay.keys()].sort();
  // Months counted as year * 12 + month (0-based), so stepping back over a new year is plain arithmetic.
  const monthIndex = (day: string) => Number(day.slice(0, 4)) * 12 + Number(day.slice(5, 7)) - 1;
  const months: CalendarMonth[] = [];
  for (let i = monthIndex(sorted[sorted.length - 1]!), first = monthIndex(sorted[0]!); i >= first; i--) {
    months.push(monthGrid(Math.floor(i / 12), i % 12, byDay, weekStartsOn));
  }
  return months;
}

/** How far the copy has come: settled days copied of the settled days in the range. */
export interface DayTally {
  complete: number;
  /** Settled days of the range (everything but "not settled yet"). */
  settled: number;
  unsettled: number;
}

export function dayTally(days: readonly HistoryDay[]): DayTally {
  const complete = days.filter((d) => d.state === 'complete').length;
  const unsettled = days.filter((d) => d.state === 'unsettled').length;
  return { complete, settled: days.length - unsettled, unsettled };
}
