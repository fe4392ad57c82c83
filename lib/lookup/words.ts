/**
 * What the lookup says to a person: what is wrong with what they pasted (said before anything is
 * asked, so a typo never spends a call), and about an id it could not find — not visible to their
 * account (it may exist for another), and whether that is a recent answer given again without
 * asking the upstream. Words by key (messages/<locale>/lookup.json), said in the reader's language.
 */
import { msg, type Message } from '../i18n/message';

export function idEmptyText(): Message {
  return msg('lookup.empty');
}

export function idLettersText(): Message {
  return msg('lookup.letters');
}

export function idLengthText(length: number): Message {
  return msg('lookup.length', { length });
}

/** The upstream said it does not know the id, for this account. */
export function notVisibleText(trxId: string): Message {
  return msg('lookup.notVisible', { trxId });
}

/** The same answer, remembered from an upstream call of the last few minutes. */
export function notVisibleRecentlyText(trxId: string): Message {
  return msg('lookup.notVisibleRecently', { trxId });
}
