/**
 * The interface's languages, and the browser's memory of the one a person picked. Pure and safe in
 * the browser: the header's switch writes the cookie, the server reads it (lib/i18n/negotiate.ts).
 */
export const LOCALES = ['ja', 'en'] as const;
export type Locale = (typeof LOCALES)[number];

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/**
 * Each language's name in itself, as a switch names them: a reader who cannot read the current
 * language still finds their own.
 */
export const LOCALE_NAMES: Record<Locale, string> = { ja: '日本語', en: 'English' };

/**
 * The BCP 47 tag Intl formats with: Japan's conventions for ja; for en, the forms the dashboard
 * has always shown (US digit grouping), whatever English the browser speaks.
 */
export const INTL_LOCALE: Record<Locale, string> = { ja: 'ja-JP', en: 'en-US' };

export const LOCALE_COOKIE = 'sms-locale';
/** A year: a preference, renewed each time it is picked. */
const KEEP_S = 365 * 24 * 3600;

/** The Set-Cookie text (document.cookie's) that remembers `locale`. */
export function localeCookie(locale: Locale, secure: boolean): string {
  return `${LOCALE_COOKIE}=${locale}; Path=/; Max-Age=${KEEP_S}; SameSite=Lax${secure ? '; Secure' : ''}`;
}
