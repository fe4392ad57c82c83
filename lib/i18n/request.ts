/**
 * next-intl's request configuration (wired by its plugin in next.config.mjs): the language of the
 * page being rendered and its catalogue. No locale in the URL: a shared link opens in the reader's
 * language.
 */
import { getRequestConfig } from 'next-intl/server';
import { messagesFor } from './catalogue';
import { pageLocale } from './request-locale';

export default getRequestConfig(async () => {
  const locale = await pageLocale();
  // Dates are the dashboard's to format, in the person's chosen zone (format.ts); a zone named here
  // keeps next-intl from warning that none is, and the server and browser from disagreeing.
  return { locale, messages: messagesFor(locale), timeZone: 'UTC' };
});
