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

/**
 * The first string after every string that starts with `prefix` (SQLite compares text as UTF-8
 * bytes, which is code point order): its last character one code point up. A last character at
 * the top of Unicode (U+10FFFF) has none above it: the one before it goes up instead, and a prefix
 * of nothing but U+10FFFF has no successor (null: no upper bound).
 */
export function prefixSuccessor(prefix: string): string | null {
  const chars = [...prefix];
  while (chars.length > 0) {
    const code = chars.pop()!.codePointAt(0)!;
    // A lone surrogate's next is another surrogate: skip past them to a character UTF-8 can carry.
    const next = code === 0xd7ff ? 0xe000 : code + 1;
    if (next <= 0x10ffff) return chars.join('') + String.fromCodePoint(next);
  }
  return null;
}
