/**
 * How values read on screen. Pure functions (no React, no clock) so the table, the drawer and the
 * detail page agree, and tests can pin every format.
 */
import { formatWallClock, parseUpstreamTimestamp, type Zone } from '../time/zones';

/** What an empty string ("does not apply / not provided", seed §2.2) looks like. */
export const EMPTY = '—';

export function displayText(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return EMPTY;
  const text = String(value);
  return text.trim() === '' ? EMPTY : text;
}

/** `2026-11-20 09:15:02` (or with `.123` when `withMs`), in `zone`. */
export function formatInstant(instant: Date, zone: Zone, withMs = false): string {
  const text = formatWallClock(instant, zone);
  // A zone's offset is whole minutes: the instant's milliseconds are the wall clock's.
  return withMs ? `${text}.${String(instant.getUTCMilliseconds()).padStart(3, '0')}` : text;
}

/**
 * A record's timestamp as a person reads it in `zone`. The server already answers in the requested
 * zone, but we re-read the offset rather than trust it, so a cached answer in another zone still
 * shows right. Unreadable values are shown as they came.
 */
export function formatTimestamp(value: string, zone: Zone, withMs = false): string {
  if (value.trim() === '') return EMPTY;
  const instant = parseUpstreamTimestamp(value);
  return instant ? formatInstant(instant, zone, withMs) : value;
}

const currencyDigits = new Map<string, number>();

function minorDigits(currency: string): number | undefined {
  if (!currencyDigits.has(currency)) {
    try {
      const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
        .maximumFractionDigits;
      currencyDigits.set(currency, digits ?? 2);
    } catch {
      return undefined; // not an ISO 4217 code
    }
  }
  return currencyDigits.get(currency);
}

/**
 * Decimals a price is shown with: at least two — so one column reads `JPY 3.30` beside `JPY 3.08`,
 * never `JPY 3.3` beside `JPY 3.08` (yen has no minor unit, but SMS prices carry sen) — more when
 * the currency has more, and more again only when the price itself does (`USD 0.0075`), never
 * more than the upstream's 8.
 */
const MIN_PRICE_DECIMALS = 2;

/**
 * `JPY 3.30`, `USD 0.0075`, `EUR 1,234.50`: the upstream's 8-digit decimal in the ISO code rather
 * than a symbol, because "¥" is both yen and yuan. Unknown currencies keep the plain number.
 */
export function formatPrice(price: string, currency: string): string {
  if (price.trim() === '') return EMPTY;
  const n = Number(price);
  if (!Number.isFinite(n)) return currency ? `${price} ${currency}` : price;
  const fraction = price.includes('.') ? price.split('.')[1]!.replace(/0+$/, '').length : 0;
  const digits = currency ? minorDigits(currency.toUpperCase()) : undefined;
  if (digits === undefined) {
    const plain = n.toLocaleString('en-US', { minimumFractionDigits: fraction, maximumFractionDigits: fraction });
    return currency ? `${plain} ${currency}` : plain;
  }
  const shown = Math.max(digits, MIN_PRICE_DECIMALS, Math.min(fraction, 8));
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: currency.toUpperCase(),
    currencyDisplay: 'code',
    minimumFractionDigits: shown,
    maximumFractionDigits: shown,
  })
    .format(n)
    .replace(/\u00a0/g, ' ');
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

/** `980`, `33.1K`, `1.2M`: a count where room is short (a calendar cell); the exact one goes in its label. */
export function formatCompactCount(n: number): string {
  return compact.format(n);
}

export { formatDuration } from '../time/duration';

/** A countdown as a clock reads: `0:41`, `12:05`, `3:02:09`. */
export function formatCountdown(seconds: number): string {
  const total = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** How long ago something happened: `just now`, `42 s ago`, `3 min ago`, `2 h ago`, `1 d ago`. */
export function formatAgo(seconds: number): string {
  return seconds < 5 ? 'just now' : formatAge(seconds).replace(/ old$/, ' ago');
}

/** How old cached data is: `just now`, `42 s old`, `3 min old`, `2 h old`. */
export function formatAge(seconds: number): string {
  if (seconds < 5) return 'just now';
  if (seconds < 60) return `${Math.round(seconds)} s old`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min old`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h old`;
  return `${Math.floor(seconds / 86_400)} d old`;
}
