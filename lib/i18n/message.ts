/**
 * Words for a person, carried as a key and values rather than as text, so code that does not know
 * who will read them (a service deep below a route, a problem thrown on the way) can say them, and
 * the place that does know the reader's language (lib/root/with-account.ts, a page) renders them:
 *
 *   throw new ProblemError({ type, status: 409, title: msg('problems.exports.tooMany.title'), … })
 *
 * Values are strings, numbers (formatted with the language's separators: pass an id or a byte count
 * as a string to keep it as it is), a wait in seconds, which each language writes its own way
 * (`2 min 5 s`, `2分5秒`), or Words of their own. Safe in the browser.
 */
import { formatWait } from './format';
import type { Locale } from './locales';
import type { MessageKey } from './messages-type';

/** A nested Message is said first, in the same language (a caller's own sentence inside a problem's detail). */
export type MessageValue = string | number | { seconds: number } | Message;

export interface Message {
  key: MessageKey;
  values?: Record<string, MessageValue>;
}

/**
 * What a person reads: a Message, or text written before its words were in the catalogues (shown
 * as it is, in English; issue 39 converts the rest).
 */
export type Words = string | Message;

export function msg(key: MessageKey, values?: Record<string, MessageValue>): Message {
  return values === undefined ? { key } : { key, values };
}

export function isMessage(words: unknown): words is Message {
  return typeof words === 'object' && words !== null && typeof (words as Message).key === 'string';
}

/** The values as ICU takes them: each wait written in `locale`, each nested Message said by `say`. */
export function messageArgs(
  values: Record<string, MessageValue> | undefined,
  locale: Locale,
  say: (message: Message) => string,
): Record<string, string | number> | undefined {
  if (values === undefined) return undefined;
  return Object.fromEntries(
    Object.entries(values).map(([name, v]) => [
      name,
      typeof v !== 'object' ? v : isMessage(v) ? say(v) : formatWait(v.seconds, locale),
    ]),
  );
}
