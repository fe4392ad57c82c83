/**
 * The History page's calendar, worked out from GET /api/history's days: UTC months as grids of
 * weeks (Monday first, as ISO 8601 and most Japanese business calendars print them), newest month
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
  /** "November 2026" */
  label: string;
  /** Rows of 7 cells, Monday to Sunday; null pads the days of the neighbouring months. */
  weeks: (CalendarDate | null)[][];
}

export const WEEKDAYS = [
  { short: 'Mon', long: 'Monday' },
  { short: 'Tue', long: 'Tuesday' },
  { short: 'Wed', long: 'Wednesday' },
  { short: 'Thu', long: 'Thursday' },
  { short: 'Fri', long: 'Friday' },
  { short: 'Sat', long: 'Saturday' },
  { short: 'Sun', long: 'Sunday' },
] as const;

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/** One month's grid; `byDay` holds the days the answer covers. */
function monthGrid(year: number, month: number, byDay: ReadonlyMap<string, HistoryDay>): CalendarMonth {
  const key = `${year}-${pad(month + 1)}`;
  // getUTCDay: Sunday 0 … Saturday 6; Monday-first columns.
  const lead = (new Date(Date.UTC(year, month, 1)).getUTCDay() + 6) % 7;
  const cells: (CalendarDate | null)[] = Array.from({ length: lead }, () => null);
  for (let d = 1, n = daysInMonth(year, month); d <= n; d++) {
    const day = `${key}-${pad(d)}`;
    cells.push({ day, dayOfMonth: d, entry: byDay.get(day) ?? null });
  }
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks: (CalendarDate | null)[][] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return { key, label: `${MONTH_NAMES[month]} ${year}`, weeks };
}

/** The months that hold `days` (any order), newest month first; none for no days. */
export function calendarMonths(days: readonly HistoryDay[]): CalendarMonth[] {
  const valid = days.filter((d) => dayStart(d.day) !== null);
  if (valid.length === 0) return [];
  const byDay = new Map(valid.map((d) => [d.day, d]));
  const sorted = [...byDay.keys()].sort();
  // Months counted as year * 12 + month (0-based), so stepping back over a new year is plain arithmetic.
  const monthIndex = (day: string) => Number(day.slice(0, 4)) * 12 + Number(day.slice(5, 7)) - 1;
  const months: CalendarMonth[] = [];
  for (let i = monthIndex(sorted[sorted.length - 1]!), first = monthIndex(sorted[0]!); i >= first; i--) {
    months.push(monthGrid(Math.floor(i / 12), i % 12, byDay));
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
