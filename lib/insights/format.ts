/**
 * How Insights writes its figures, in the reader's language: rates as percentages (`91.2 %`,
 * `91.2%`), latencies in s/min/h or 秒/分/時間, prices as given (exact decimal strings) with their
 * currency, a chart's day with its weekday in Japanese (lib/i18n/format.ts formatDay). Pure.
 */
import { formatDay, formatWait } from '../i18n/format';
import { INTL_LOCALE, type Locale } from '../i18n/locales';

export function formatRate(rate: number | null, locale: Locale = 'en'): string {
  if (rate === null) return '—';
  const digits = rate >= 0.9995 || rate === 0 ? 0 : 1;
  // Japanese writes the sign against the figure; English here keeps the SI space the dashboard always showed.
  if (locale === 'ja')
    return new Intl.NumberFormat(INTL_LOCALE.ja, {
      style: 'percent',
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(rate);
  return `${(rate * 100).toFixed(digits)} %`;
}

/** Units of a latency, largest first: [threshold ms, divisor ms, decimals below 10 units, en unit, ja unit]. */
const LATENCY_UNITS = [
  { below: 1000, per: 1, en: ' ms', ja: 'ミリ秒' },
  { below: 60_000, per: 1000, en: ' s', ja: '秒' },
  { below: 3_600_000, per: 60_000, en: ' min', ja: '分' },
  { below: Infinity, per: 3_600_000, en: ' h', ja: '時間' },
] as const;

export function formatLatency(ms: number | null, locale: Locale = 'en'): string {
  if (ms === null) return '—';
  const unit = LATENCY_UNITS.find((u) => ms < u.below)!;
  const value =
    unit.per === 1
      ? String(Math.round(ms))
      : unit.per === 1000
        ? (ms / 1000).toFixed(ms < 10_000 ? 2 : 1)
        : (ms / unit.per).toFixed(1);
  return `${value}${unit[locale]}`;
}

/** "1234.56000000" → "1,234.56" (the exact value trimmed of zeros past two decimals, grouped). */
export function formatPrice(total: string): string {
  const [whole = '0', fraction = ''] = total.split('.');
  const kept = fraction.replace(/0+$/, '').padEnd(2, '0');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${kept}`;
}

/** A day as the axis shows it: `11-20` in English (the year is in the range), `11月20日(金)` in Japanese. */
export function shortDay(day: string, locale: Locale = 'en'): string {
  return locale === 'ja' ? formatDay(day, 'ja') : day.slice(5);
}

/** A latency bucket's bounds in the reader's units (`1 min`, `1分`), for its label (insights.chart.bucket*). */
export function bucketBounds(b: { fromMs: number; toMs: number | null }, locale: Locale): { from: string; to: string } {
  return {
    from: formatWait(b.fromMs / 1000, locale),
    to: b.toMs === null ? '' : formatWait(b.toMs / 1000, locale),
  };
}
