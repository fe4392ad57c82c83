/**
 * A parse result as a reader of `locale` gets it: each parameter's Words (lib/query's messages by
 * key) said in that language, so a test asserts the words a person reads.
 */
import { translate } from '@/lib/i18n/translate';
import type { Locale } from '@/lib/i18n/locales';
import type { Words } from '@/lib/i18n/message';

type Result = { ok: true } | { ok: false; errors: Record<string, Words> };

export function said<R extends Result>(
  result: R,
  locale: Locale = 'en',
): R extends { ok: false } ? Omit<R, 'errors'> & { errors: Record<string, string> } : R {
  if (result.ok) return result as never;
  // Built without a prototype: a parameter named `__proto__` stays a key.
  const errors = Object.create(null) as Record<string, string>;
  for (const [param, words] of Object.entries(result.errors)) errors[param] = translate(locale, words);
  return { ...result, errors } as never;
}
