/**
 * The date picker's helpers for a range as the draft holds it (lib/query/draft.ts `WallRange`: two
 * wall clocks in the chosen zone): talking to `<input type="datetime-local">`, measuring the range,
 * halving it. What is wrong with a range is said by the query's own parser (checkDraft).
 */
import type { WallRange } from '../query/draft';
import { SEARCH_MAX_RANGE_MS as MAX_RANGE_MS } from '../query/query';
import { formatWallClock, parseWallClock, type Zone } from '../time/zones';
import { formatDuration } from '../i18n/format';
import type { Locale } from '../i18n/locales';
import type { Words } from '../i18n/message';

/** `2026-11-20 09:15:00` → `2026-11-20T09:15:00`, the value a datetime-local input takes. */
export function toInputValue(wallClock: string): string {
  return wallClock.trim().replace(' ', 'T');
}

/** A datetime-local value (seconds optional) → `YYYY-MM-DD HH:MM:SS`; "" stays "". */
export function fromInputValue(input: string): string {
  const value = input.trim();
  if (value === '') return '';
  const [date, time = ''] = value.split('T');
  const withSeconds = /^\d{2}:\d{2}$/.test(time) ? `${time}:00` : time;
  return `${date} ${withSeconds}`;
}

/** What the query's parser says is wrong with each end (Words: said in the page's language by the picker). */
export interface RangeProblems {
  'date-from'?: Words;
  'date-to'?: Words;
}

const EXACT_UNITS: Record<Locale, { d: string; h: string; min: string; s: string; gap: string }> = {
  en: { d: ' d', h: ' h', min: ' min', s: ' s', gap: ' ' },
  ja: { d: '日', h: '時間', min: '分', s: '秒', gap: '' },
};

/** Every part of a span, to the second (`31 d 1 s`, `31日1秒`): how much to take off must not be rounded away. */
function exactDuration(ms: number, locale: Locale): string {
  const u = EXACT_UNITS[locale];
  const total = Math.round(ms / 1000);
  const parts: [number, string][] = [
    [Math.floor(total / 86_400), u.d],
    [Math.floor((total % 86_400) / 3600), u.h],
    [Math.floor((total % 3600) / 60), u.min],
    [total % 60, u.s],
  ];
  return (
    parts
      .filter(([n]) => n > 0)
      .map(([n, unit]) => `${n}${unit}`)
      .join(u.gap) || `0${u.s}`
  );
}

/**
 * How long the range is, in `locale`'s units, when both ends read: shown beside the 31-day message.
 * Too long, it is said to the second with what is over (`over`), so the person knows how much to take off.
 */
export function rangeSpan(
  range: WallRange,
  zone: Zone,
  locale: Locale = 'en',
): { ms: number; text: string; over: string | null; tooLong: boolean } | null {
  const from = parseWallClock(range.dateFrom, zone);
  const to = parseWallClock(range.dateTo, zone);
  if (!from || !to) return null;
  const ms = to.getTime() - from.getTime();
  if (ms <= MAX_RANGE_MS) return { ms, text: formatDuration(ms, locale), over: null, tooLong: false };
  return { ms, text: exactDuration(ms, locale), over: exactDuration(ms - MAX_RANGE_MS, locale), tooLong: true };
}

/** The latest end the picker offers for a given start: start + 31 days (the `max` of the input). */
export function latestEndFor(dateFrom: string, zone: Zone): string | null {
  const from = parseWallClock(dateFrom, zone);
  return from ? formatWallClock(new Date(from.getTime() + MAX_RANGE_MS), zone) : null;
}

/** Halves of a range, for "narrow the range" when a result is deeper than can be reached. */
export function splitRange(range: WallRange, zone: Zone): [WallRange, WallRange] | null {
  const from = parseWallClock(range.dateFrom, zone);
  const to = parseWallClock(range.dateTo, zone);
  if (!from || !to || to <= from) return null;
  const middle = new Date(Math.floor((from.getTime() + to.getTime()) / 2000) * 1000);
  const mid = formatWallClock(middle, zone);
  return [
    { dateFrom: range.dateFrom, dateTo: mid },
    { dateFrom: mid, dateTo: range.dateTo },
  ];
}
