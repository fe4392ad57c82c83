import 'server-only';
/**
 * Renders Words in a language, on the server outside React (a route's problem details, a log
 * line's English). Pages and components use next-intl's getTranslations / useTranslations. From
 * use-intl's core (next-intl's own, without React): `next-intl` itself pulls in its client
 * provider, which a process outside Next (a test's child, a benchmark) cannot load.
 */
import { createTranslator } from 'use-intl/core';
import { log } from '../log';
import { messagesFor } from './catalogue';
import { LOCALES, type Locale } from './locales';
import { isMessage, messageArgs, type Words } from './message';

type Translator = (key: string, values?: Record<string, string | number>) => string;

function makeTranslator(locale: Locale): Translator {
  const t = createTranslator({
    locale,
    messages: messagesFor(locale),
    // Dates are never formatted by a message (the person's zone is theirs: lib/i18n/format.ts);
    // a zone named here keeps next-intl from warning that none is.
    timeZone: 'UTC',
    onError: (error) => log.error('i18n.message_failed', { locale, error: error.message }),
  });
  return t as unknown as Translator;
}

const translators = Object.fromEntries(LOCALES.map((l) => [l, makeTranslator(l)])) as Record<Locale, Translator>;

export function translate(locale: Locale, words: Words): string {
  if (!isMessage(words)) return words;
  return translators[locale](
    words.key,
    messageArgs(words.values, locale, (nested) => translate(locale, nested)),
  );
}
