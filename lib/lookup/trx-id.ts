/**
 * A trx_id (32 hexadecimal characters, seed §2.2) as people hand it over, read the one way the
 * lookup box, the transaction page, the drawer's `row=` and the server all read it: a support
 * person pastes it from a ticket in capitals, grouped with spaces, in the UUID form
 * (8-4-4-4-12), or as a link to its page. The records write it in lower case.
 */

import { halfWidth } from '../cdr/typed-text';
import type { Message } from '../i18n/message';
import { idEmptyText, idLengthText, idLettersText } from './words';

/** Where a pasted link of this dashboard carries the id: its page, or the drawer's `row=`. */
const IN_LINK = /\/transactions\/([^/?#\s]+)|[?&]row=([^&#\s]+)/i;

/** The id in the form the records use, from what was typed or pasted (not checked: see trxIdProblem). */
export function normaliseTrxId(input: string): string {
  // Full-width, as a Japanese keyboard may give it: ０-９, Ａ-Ｆ, － or ー between the groups.
  let value = halfWidth(input).trim();
  const link = IN_LINK.exec(value);
  if (link) value = decodedOrAsIs((link[1] ?? link[2])!);
  return value.replace(/[\s-]+/g, '').toLowerCase();
}

/** A URL part decoded; one with a malformed escape stays as it came (and is refused as not hex). */
export function decodedOrAsIs(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Says what is wrong with a would-be trx_id, or null when it is fine, after reading it as
 * normaliseTrxId does (so "956F5B9F-1ADB-…" is fine).
 */
export function trxIdProblem(input: string): Message | null {
  const value = normaliseTrxId(input);
  if (value === '') return idEmptyText();
  if (/[^0-9a-f]/.test(value)) return idLettersText();
  if (value.length !== 32) return idLengthText(value.length);
  return null;
}
