import { describe, expect, it } from 'vitest';
import {
  displayText,
  EMPTY,
  formatAge,
  formatAgo,
  formatCompactCount,
  formatCountdown,
  formatDuration,
  formatPrice,
  formatTimestamp,
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
