/**
 * next-intl's types for this app: the languages, and the catalogue's shape (from the English
 * files), so a translation key that does not exist is a type error.
 */
import type { Locale } from './lib/i18n/locales';
import type { Messages } from './lib/i18n/messages-type';

declare module 'next-intl' {
  interface AppConfig {
    Locale: Locale;
    Messages: Messages;
  }
}
