/**
 * How values read on screen, in each language. Pure functions (no React, no clock) so the table,
 * the drawer, the detail page and the server's messages agree, and tests can pin every format.
 * Each takes the reader's locale last, defaulting to English (the forms the dashboard always
 * showed); components take them bound to the page's language from useFormat (use-format.ts). The
 * zone is a separate choice of the person's, never implied by the language.
 */
import { formatWallClock, parseUpstreamTimestamp, type Zone } from '../time/zones';
import { INTL_LOCALE, type Locale } from './locales';

/** What an empty string ("does not apply / not provided", seed §2.2) looks like. */
export const EMPTY = '—';

export function displayText(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return EMPTY;
  const text = String(value);
  return text.trim() === '' ? EMPTY : text;
}

/**
 * `2026-11-20 09:15:02` in English, `2026/11/20 09:15:02` in Japanese (as Japanese readers write
 * dates: YYYY/MM/DD, 24 hours), with `.123` when `withMs`, in `zone`.
 */
export function formatInstant(instant: Date, zone: Zone, withMs = false, locale: Locale = 'en'): string {
  const wall = formatWallClock(instant, zone);
  const text = locale === 'ja' ? wall.replace(/^(\d{4})-(\d{2})-(\d{2})/, '$1/$2/$3') : wall;
  // A zone's offset is whole minutes: the instant's milliseconds are the wall clock's.
  return withMs ? `${text}.${String(instant.getUTCMilliseconds()).padStart(3, '0')}` : text;
}

const JA_WEEKDAYS = ['日', '月', '火', '水', '木', '金', '土'];

/**
 * A day of a calendar or a chart (`YYYY-MM-DD`, already the zone's): `10月3日(金)` in Japanese;
 * in English the day as it is written today. Anything else is shown as it came.
 */
export function formatDay(day: string, locale: Locale = 'en'): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m || locale === 'en') return day;
  const weekday = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))).getUTCDay();
  return `${Number(m[2])}月${Number(m[3])}日(${JA_WEEKDAYS[weekday]})`;
}

/** The first day of a week on a calendar (0 Sunday, 1 Monday): ja-JP's is Sunday; English keeps Monday, ISO 8601's. */
export const WEEK_STARTS_ON: Record<Locale, 0 | 1> = { ja: 0, en: 1 };

/**
 * A record's timestamp as a person reads it in `zone`. The server already answers in the requested
 * zone, but we re-read the offset rather than trust it, so a cached answer in another zone still
 * shows right. Unreadable values are shown as they came.
 */
export function formatTimestamp(value: string, zone: Zone, withMs = false, locale: Locale = 'en'): string {
  if (value.trim() === '') return EMPTY;
  const instant = parseUpstreamTimestamp(value);
  return instant ? formatInstant(instant, zone, withMs, locale) : value;
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
 * `JPY 3.30`, `USD 0.0075`, `EUR 1,234.50` in English: the upstream's 8-digit decimal with the ISO
 * code rather than a symbol, because "¥" is both yen and yuan. In Japanese, as Japanese consoles
 * write prices: yen as `¥4.50` (a half-width ¥ and the sen kept: Intl's ja-JP yen is a full-width
 * ￥ rounded to whole yen, `￥5`), any other currency as `0.0333 USD`. Unknown currencies keep
 * the plain number.
 */
export function formatPrice(price: string, currency: string, locale: Locale = 'en'): string {
  if (price.trim() === '') return EMPTY;
  const n = Number(price);
  if (!Number.isFinite(n)) return currency ? `${price} ${currency}` : price;
  const fraction = price.includes('.') ? price.split('.')[1]!.replace(/0+$/, '').length : 0;
  const code = currency.toUpperCase();
  const digits = currency ? minorDigits(code) : undefined;
  if (digits === undefined) {
    const plain = n.toLocaleString(INTL_LOCALE[locale], {
      minimumFractionDigits: fraction,
      maximumFractionDigits: fraction,
    });
    return currency ? `${plain} ${currency}` : plain;
  }
  const shown = Math.max(digits, MIN_PRICE_DECIMALS, Math.min(fraction, 8));
  if (locale === 'ja') {
    const amount = new Intl.NumberFormat(INTL_LOCALE.ja, {
      minimumFractionDigits: shown,
      maximumFractionDigits: shown,
    }).format(Math.abs(n));
    const sign = n < 0 ? '-' : '';
    return code === 'JPY' ? `${sign}¥${amount}` : `${sign}${amount} ${code}`;
  }
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: code,
    currencyDisplay: 'code',
    minimumFractionDigits: shown,
    maximumFractionDigits: shown,
  })
    .format(n)
    .replace(/\u00a0/g, ' ');
}

/** `1,234,567` in both languages (Japanese groups by three too, in half-width digits). */
export function formatCount(n: number, locale: Locale = 'en'): string {
  return n.toLocaleString(INTL_LOCALE[locale]);
}

const compact: Record<Locale, Intl.NumberFormat> = {
  en: new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 }),
  ja: new Intl.NumberFormat('ja-JP', { notation: 'compact', maximumFractionDigits: 1 }),
};

/**
 * `980`, `33.1K`, `1.3M` (`3.3万`, `125万` in Japanese): a count where room is short (a calendar
 * cell); the exact one goes in its label.
 */
export function formatCompactCount(n: number, locale: Locale = 'en'): string {
  return compact[locale].format(n);
}

const UNITS: Record<Locale, { ms: string; s: string; min: string; h: string; d: string; gap: string }> = {
  en: { ms: ' ms', s: ' s', min: ' min', h: ' h', d: ' d', gap: ' ' },
  ja: { ms: 'ミリ秒', s: '秒', min: '分', h: '時間', d: '日', gap: '' },
};

/**
 * A span of time, to the precision that matters: `850 ms`, `4.2 s`, `3 min 12 s`, `2 h 5 min`,
 * `1 d 3 h`; in Japanese `4.2秒`, `3分12秒`, `2時間5分`, `1日3時間`. A latency, a wait, an age.
 */
export function formatDuration(ms: number, locale: Locale = 'en'): string {
  const u = UNITS[locale];
  const sign = ms < 0 ? '−' : '';
  const abs = Math.abs(ms);
  if (abs < 1000) return `${sign}${Math.round(abs)}${u.ms}`;
  if (abs < 60_000) {
    const s = abs / 1000;
    return `${sign}${s < 10 ? s.toFixed(1) : Math.round(s)}${u.s}`;
  }
  const totalSeconds = Math.round(abs / 1000);
  const d = Math.floor(totalSeconds / 86_400);
  const h = Math.floor((totalSeconds % 86_400) / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const s = totalSeconds % 60;
  if (d > 0) return `${sign}${d}${u.d}${h ? `${u.gap}${h}${u.h}` : ''}`;
  if (h > 0) return `${sign}${h}${u.h}${m ? `${u.gap}${m}${u.min}` : ''}`;
  return `${sign}${m}${u.min}${s ? `${u.gap}${s}${u.s}` : ''}`;
}

/** How long to wait, in whole seconds under a minute (`45 s`, `45秒`), else as a duration (`2 min 5 s`). */
export function formatWait(seconds: number, locale: Locale = 'en'): string {
  const whole = Math.max(1, Math.ceil(seconds));
  return whole < 60 ? `${whole}${UNITS[locale].s}` : formatDuration(whole * 1000, locale);
}

/** A countdown as a clock reads: `0:41`, `12:05`, `3:02:09`. */
export function formatCountdown(seconds: number): string {
  const total = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** An age to the unit that matters: seconds under a minute, else whole minutes, hours or days. */
function ageAmount(seconds: number, locale: Locale): string {
  const u = UNITS[locale];
  if (seconds < 60) return `${Math.round(seconds)}${u.s}`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}${u.min}`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}${u.h}`;
  return `${Math.floor(seconds / 86_400)}${u.d}`;
}

const JUST_NOW: Record<Locale, string> = { en: 'just now', ja: 'たった今' };

/** How long ago something happened: `just now`, `42 s ago`, `3 min ago`, `1 d ago`; `たった今`, `42秒前`. */
export function formatAgo(seconds: number, locale: Locale = 'en'): string {
  if (seconds < 5) return JUST_NOW[locale];
  return locale === 'ja' ? `${ageAmount(seconds, locale)}前` : `${ageAmount(seconds, locale)} ago`;
}

/** How old cached data is: `just now`, `42 s old`, `3 min old`, `2 h old`; `たった今`, `3分前` (Japanese says both alike). */
export function formatAge(seconds: number, locale: Locale = 'en'): string {
  if (seconds < 5) return JUST_NOW[locale];
  return locale === 'ja' ? `${ageAmount(seconds, locale)}前` : `${ageAmount(seconds, locale)} old`;
}

/** Every formatter bound to one language: what a component gets from useFormat. */
export function formatterFor(locale: Locale) {
  return {
    locale,
    instant: (instant: Date, zone: Zone, withMs = false) => formatInstant(instant, zone, withMs, locale),
    timestamp: (value: string, zone: Zone, withMs = false) => formatTimestamp(value, zone, withMs, locale),
    day: (day: string) => formatDay(day, locale),
    price: (price: string, currency: string) => formatPrice(price, currency, locale),
    count: (n: number) => formatCount(n, locale),
    compactCount: (n: number) => formatCompactCount(n, locale),
    duration: (ms: number) => formatDuration(ms, locale),
    wait: (seconds: number) => formatWait(seconds, locale),
    countdown: formatCountdown,
    age: (seconds: number) => formatAge(seconds, locale),
    ago: (seconds: number) => formatAgo(seconds, locale),
  };
}

export type Formatter = ReturnType<typeof formatterFor>;
