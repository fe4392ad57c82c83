'use client';
/**
 * Renders Words (message.ts) in the page's language, for a client component showing words another
 * module chose (a form's problems, a code from a link): `const say = useWords(); say(problem)`.
 */
import { useLocale, useTranslations } from 'next-intl';
import { useCallback } from 'react';
import { isMessage, messageArgs, type Words } from './message';

export function useWords(): (words: Words) => string {
  const t = useTranslations();
  const locale = useLocale();
  return useCallback(
    function say(words: Words): string {
      return isMessage(words) ? t(words.key, messageArgs(words.values, locale, say)) : words;
    },
    [t, locale],
  );
}
