import { describe, expect, it } from 'vitest';
import {
  displayText,
  EMPTY,
  formatAge,
  formatAgo,
  formatCompactCount,
  formatCount,
  formatCountdown,
  formatDay,
  formatDuration,
  formatInstant,
  formatPrice,
  formatTimestamp,
  formatterFor,
  formatWait,
  WEEK_STARTS_ON,
} from './format';

describe('formatters', () => {
  it('shortens a count where room is short', () => {
    expect(formatCompactCount(0)).toBe('0');
    expect(formatCompactCount(980)).toBe('980');
    expect(formatCompactCount(33_120)).toBe('33.1K');
    expect(formatCompactCount(1_250_000)).toBe('1.3M');
  });

  it('shows empty strings as a dash', () => {
    expect(displayText('')).toBe(EMPTY);
    expect(displayText('  ')).toBe(EMPTY);
    expect(displayText(null)).toBe(EMPTY);
    expect(displayText(0)).toBe('0');
  });

  it('shows a record timestamp in the chosen zone, whatever offset it came with', () => {
    expect(formatTimestamp('2026-11-20T09:15:02.123+0900', 'UTC')).toBe('2026-11-20 00:15:02');
    expect(formatTimestamp('2026-11-20T00:15:02.123+0000', 'JST')).toBe('2026-11-20 09:15:02');
    expect(formatTimestamp('2026-11-20T00:15:02.123+0000', 'JST', true)).toBe('2026-11-20 09:15:02.123');
    expect(formatTimestamp('', 'JST')).toBe(EMPTY);
    expect(formatTimestamp('yesterday', 'JST')).toBe('yesterday');
  });

  it('formats a price with its currency, trimming the upstream’s 8 digits but not below the currency’s own', () => {
    expect(formatPrice('0.01500000', 'JPY')).toBe('JPY 0.015');
    expect(formatPrice('3.00000000', 'JPY')).toBe('JPY 3.00');
    // One column, one number of decimals: never "JPY 3.3" beside "JPY 3.08".
    expect([formatPrice('3.30000000', 'JPY'), formatPrice('3.08000000', 'JPY')]).toEqual(['JPY 3.30', 'JPY 3.08']);
    expect(formatPrice('0.10000000', 'USD')).toBe('USD 0.10');
    expect(formatPrice('0.00750000', 'usd')).toBe('USD 0.0075');
    expect(formatPrice('1234.50000000', 'EUR')).toBe('EUR 1,234.50');
    expect(formatPrice('0.50000000', 'POINTS')).toBe('0.5 POINTS');
    expect(formatPrice('', 'JPY')).toBe(EMPTY);
  });

  it('says how long something took', () => {
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(4_230)).toBe('4.2 s');
    expect(formatDuration(42_000)).toBe('42 s');
    expect(formatDuration(192_000)).toBe('3 min 12 s');
    expect(formatDuration(2 * 3600_000 + 5 * 60_000)).toBe('2 h 5 min');
    expect(formatDuration(27 * 3600_000)).toBe('1 d 3 h');
    expect(formatDuration(-4_230)).toBe('−4.2 s');
  });

  it('counts down like a clock', () => {
    expect(formatCountdown(41)).toBe('0:41');
    expect(formatCountdown(40.2)).toBe('0:41');
    expect(formatCountdown(725)).toBe('12:05');
    expect(formatCountdown(3 * 3600 + 129)).toBe('3:02:09');
    expect(formatCountdown(-3)).toBe('0:00');
  });

  it('says how old cached data is', () => {
    expect(formatAge(2)).toBe('just now');
    expect(formatAge(42)).toBe('42 s old');
    expect(formatAge(200)).toBe('3 min old');
    expect(formatAge(7300)).toBe('2 h old');
    expect(formatAgo(2)).toBe('just now');
    expect(formatAgo(42)).toBe('42 s ago');
    expect(formatAgo(200)).toBe('3 min ago');
    expect(formatAgo(90_000)).toBe('1 d ago');
  });
});

describe('formatters in Japanese', () => {
  it('write a date and time as Japanese readers do, in the zone the person chose', () => {
    expect(formatTimestamp('2025-10-03T05:05:09.120+0000', 'JST', false, 'ja')).toBe('2025/10/03 14:05:09');
    expect(formatTimestamp('2025-10-03T05:05:09.120+0000', 'UTC', true, 'ja')).toBe('2025/10/03 05:05:09.120');
    // The language does not choose the zone: the same instant in UTC reads as UTC in both.
    const instant = new Date('2025-10-02T23:30:00Z');
    expect(formatInstant(instant, 'UTC', false, 'ja')).toBe('2025/10/02 23:30:00');
    expect(formatInstant(instant, 'UTC')).toBe('2025-10-02 23:30:00');
    expect(formatInstant(instant, 'JST', false, 'ja')).toBe('2025/10/03 08:30:00');
    expect(formatTimestamp('', 'JST', false, 'ja')).toBe(EMPTY);
  });

  it('write a calendar or chart day with its weekday, and start weeks on Sunday', () => {
    expect(formatDay('2025-10-03', 'ja')).toBe('10月3日(金)');
    expect(formatDay('2026-01-04', 'ja')).toBe('1月4日(日)');
    expect(formatDay('2025-10-03', 'en')).toBe('2025-10-03');
    expect(formatDay('2025-10-03 14:00', 'ja')).toBe('2025-10-03 14:00');
    expect(WEEK_STARTS_ON).toEqual({ ja: 0, en: 1 });
  });

  it('write yen with a half-width ¥ and its sen, other currencies after the amount', () => {
    // Intl's own ja-JP yen would be "￥5" (full-width, rounded): a price of 4.5 yen is not 5.
    expect(new Intl.NumberFormat('ja-JP', { style: 'currency', currency: 'JPY' }).format(4.5)).toBe('￥5');
    expect(formatPrice('4.50000000', 'JPY', 'ja')).toBe('¥4.50');
    expect(formatPrice('0.01500000', 'jpy', 'ja')).toBe('¥0.015');
    expect(formatPrice('1234.50000000', 'JPY', 'ja')).toBe('¥1,234.50');
    expect(formatPrice('0.03330000', 'USD', 'ja')).toBe('0.0333 USD');
    expect(formatPrice('-3.00000000', 'JPY', 'ja')).toBe('-¥3.00');
    expect(formatPrice('0.50000000', 'POINTS', 'ja')).toBe('0.5 POINTS');
    expect(formatPrice('', 'JPY', 'ja')).toBe(EMPTY);
  });

  it('group numbers by three in half-width digits, and shorten them in 万', () => {
    expect(formatCount(1_234_567, 'ja')).toBe('1,234,567');
    expect(formatCount(1_234_567)).toBe('1,234,567');
    expect(formatCompactCount(33_120, 'ja')).toBe('3.3万');
    expect(formatCompactCount(980, 'ja')).toBe('980');
  });

  it('say spans, waits and ages in 秒, 分, 時間 and 日', () => {
    expect(formatDuration(850, 'ja')).toBe('850ミリ秒');
    expect(formatDuration(4_230, 'ja')).toBe('4.2秒');
    expect(formatDuration(192_000, 'ja')).toBe('3分12秒');
    expect(formatDuration(2 * 3600_000 + 5 * 60_000, 'ja')).toBe('2時間5分');
    expect(formatDuration(27 * 3600_000, 'ja')).toBe('1日3時間');
    expect(formatWait(4, 'ja')).toBe('4秒');
    expect(formatWait(125, 'ja')).toBe('2分5秒');
    expect(formatWait(4)).toBe('4 s');
    expect(formatWait(3600)).toBe('1 h');
    expect(formatAge(2, 'ja')).toBe('たった今');
    expect(formatAge(200, 'ja')).toBe('3分前');
    expect(formatAgo(90_000, 'ja')).toBe('1日前');
  });

  it('bind every formatter to one language for a component', () => {
    const f = formatterFor('ja');
    expect(f.timestamp('2025-10-03T05:05:09+0000', 'JST')).toBe('2025/10/03 14:05:09');
    expect(f.price('4.5', 'JPY')).toBe('¥4.50');
    expect(f.duration(192_000)).toBe('3分12秒');
    expect(formatterFor('en').price('4.5', 'JPY')).toBe('JPY 4.50');
  });
});
