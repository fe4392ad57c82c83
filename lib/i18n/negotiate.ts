/**
 * Which language a request is answered in, in one order for pages and the API alike: the person's
 * own choice (a team person's profile, when it names one; else the header switch's cookie), then
 * what the browser or client asks for (`Accept-Language`), then the deployment's DEFAULT_LOCALE.
 * Pure: the callers read the cookie, header and default (lib/i18n/request-locale.ts).
 */
import { isLocale, LOCALES, type Locale } from './locales';

export interface LocaleSources {
  /** A signed-in team person's stored choice (issue 35); absent for personal accounts. */
  profile?: string | null;
  /** The `sms-locale` cookie's value. */
  cookie?: string | null;
  acceptLanguage?: string | null;
  fallback: Locale;
}

export function pickLocale({ profile, cookie, acceptLanguage, fallback }: LocaleSources): Locale {
  if (isLocale(profile)) return profile;
  if (isLocale(cookie)) return cookie;
  return acceptedLocale(acceptLanguage, fallback);
}

/** A header longer than this is not a browser's: read only its start (it costs a split per request). */
const MAX_HEADER = 1000;

/**
 * The supported language an `Accept-Language` header (RFC 9110 §12.5.4) ranks highest: by q-weight,
 * then by position; `ja-JP` asks for `ja`, `en-GB` for `en`; `q=0` refuses; `*` takes anything, and
 * anything is the fallback. A header that names none of ours gets the fallback.
 */
export function acceptedLocale(header: string | null | undefined, fallback: Locale): Locale {
  if (!header) return fallback;
  const ranges = header
    .slice(0, MAX_HEADER)
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase());
      const q = params.find((p) => p.startsWith('q='));
      return { primary: tag.split('-')[0]!, q: q === undefined ? 1 : Number(q.slice(2)) };
    })
    .filter((r) => r.primary !== '' && Number.isFinite(r.q) && r.q >= 0 && r.q <= 1);
  const refused = new Set(ranges.filter((r) => r.q === 0).map((r) => r.primary));
  let best: { locale: Locale; q: number } | null = null;
  for (const { primary, q } of ranges) {
    const locale = primary === '*' ? fallback : isLocale(primary) ? primary : null;
    if (locale === null || q === 0 || refused.has(locale)) continue;
    // Ties keep the header's order: the first named wins.
    if (best === null || q > best.q) best = { locale, q };
  }
  return (
    best?.locale ??
    LOCALES.find((l) => l === fallback && !refused.has(l)) ??
    LOCALES.find((l) => !refused.has(l)) ??
    fallback
  );
}
