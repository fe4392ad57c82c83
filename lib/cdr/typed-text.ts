/**
 * What a Japanese keyboard types, read as what it means. An IME in full-width mode writes
 * `０９０－１２３４－５６７８` for 090-1234-5678, `ＯＲＤ` for ORD and `ｻｸﾗ` (half-width katakana)
 * for サクラ: the same text to a person, other characters to a computer. Unicode's compatibility
 * normalisation (NFKC) folds each to its usual form; a search compares both sides folded.
 */

/** Characters people type between the digits of a number or an ID: Unicode's dashes and the long-vowel mark an IME gives for "-". */
const DASH_LIKE = /[\u2010-\u2015\u2212\u30fc\uff70]/g;

/** Full-width letters, digits, spaces and punctuation as their ASCII forms; any dash as "-". For numbers, codes and IDs. */
export function halfWidth(value: string): string {
  return value.normalize('NFKC').replace(DASH_LIKE, '-');
}

/**
 * Text as free-text search compares it: folded (NFKC: half-width katakana as full-width, full-width
 * Latin as ASCII) and in lower case. Both the stored records' search text and the searched text go
 * through this, so either form finds the other.
 */
export function searchFolded(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}
