/**
 * How Insights writes its figures: rates as percentages, latencies in s/min/h, prices as given
 * (exact decimal strings) with their currency. Pure.
 */

export function formatRate(rate: number | null): string {
  if (rate === null) return '—';
  return `${(rate * 100).toFixed(rate >= 0.9995 || rate === 0 ? 0 : 1)} %`;
}

export function formatLatency(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  if (ms < 3_600_000) return `${(ms / 60_000).toFixed(1)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
}

/** "1234.56000000" → "1,234.56" (the exact value trimmed of zeros past two decimals, grouped). */
export function formatPrice(total: string): string {
  const [whole = '0', fraction = ''] = total.split('.');
  const kept = fraction.replace(/0+$/, '').padEnd(2, '0');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${kept}`;
}

/** A day as the axis shows it: `11-20` (the month and day; the year is in the range). */
export function shortDay(day: string): string {
  return day.slice(5);
}
