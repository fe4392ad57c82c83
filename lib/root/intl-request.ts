/**
 * next-intl's request configuration (wired by its plugin in next.config.mjs): the language of the
 * page being rendered and its catalogue. No locale in the URL: a shared link opens in the reader's
 * language. A signed-in team person's profile comes first (lib/i18n/negotiate.ts): their account is
 * the page's own (currentAccount, resolved once per request and shared with the signed-in layout
 * and page), so it costs no read of its own; the vault reads the profile's language with the session.
 * Here, in the composition root, because the kernel (lib/i18n) reads no session.
 */
import { getRequestConfig } from 'next-intl/server';
import { messagesFor } from '../i18n/catalogue';
import { pageLocale } from '../i18n/request-locale';
import { currentAccount } from './page-session';

export default getRequestConfig(async () => {
  // The language never fails a page: a store that cannot be reached leaves the cookie's choice.
  const account = await currentAccount().catch(() => null);
  const locale = await pageLocale(account);
  // Dates are the dashboard's to format, in the person's chosen zone (format.ts); a zone named here
  // keeps next-intl from warning that none is, and the server and browser from disagreeing.
  return { locale, messages: messagesFor(locale), timeZone: 'UTC' };
});
