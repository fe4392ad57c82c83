import 'server-only';
/**
 * The language of the request being answered (negotiate.ts's order), for a route handler
 * (localeOfRequest) and for a page (pageLocale, which next-intl's request config uses too).
 */
import { cookies, headers } from 'next/headers';
import { getConfig } from '../config';
import { LOCALE_COOKIE, type Locale } from './locales';
import { pickLocale } from './negotiate';

interface RequestLike {
  headers: Headers;
  cookies?: { get(name: string): { value: string } | undefined };
}

/** The cookie's value from a web Request too (one without Next's `cookies`). */
function cookieOf(req: RequestLike): string | undefined {
  if (req.cookies) return req.cookies.get(LOCALE_COOKIE)?.value;
  const header = req.headers.get('cookie') ?? '';
  return header
    .split(';')
    .map((pair) => pair.trim().split('='))
    .find(([name]) => name === LOCALE_COOKIE)?.[1];
}

/** Whose request it is, as far as the language goes: a signed-in team person's profile (lib/auth's vault reads it). */
export interface LocaleAccount {
  team?: { locale?: string | null } | null;
}

/** The request's language; with the signed-in account, a team person's profile first. */
export function localeOfRequest(req: RequestLike, account?: LocaleAccount | null): Locale {
  return pickLocale({
    profile: account?.team?.locale,
    cookie: cookieOf(req),
    acceptLanguage: req.headers.get('accept-language'),
    fallback: getConfig().DEFAULT_LOCALE,
  });
}

/** The page's language; with the signed-in account (lib/root/intl-request.ts), a team person's profile first. */
export async function pageLocale(account?: LocaleAccount | null): Promise<Locale> {
  return pickLocale({
    profile: account?.team?.locale,
    cookie: (await cookies()).get(LOCALE_COOKIE)?.value,
    acceptLanguage: (await headers()).get('accept-language'),
    fallback: getConfig().DEFAULT_LOCALE,
  });
}
