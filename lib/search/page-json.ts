import 'server-only';
/**
 * The JSON of a transactions page as UTF-8 bytes, byte for byte `JSON.stringify(page)`, with each
 * record's bytes taken from where they are kept (lib/http/json-text.ts) instead of written again:
 * a cached page costs the few dozen values of its links and `_meta`, not its hundred records.
 */
import type { TransactionsPage } from './api';
import { jsonBytes } from '../http/json-text';

/** Stands where the records go; no value of our own links or `_meta` is this string. */
const RECORDS_MARK = '\u0000records\u0000';
const RECORDS_MARK_TEXT = JSON.stringify(RECORDS_MARK);
const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

export function pageJson(page: TransactionsPage): Buffer {
  const { cdrs } = page._embedded;
  // Spreading keeps every key where it was: the text is in the same order as the page's own.
  const text = JSON.stringify({ ...page, _embedded: { ...page._embedded, cdrs: RECORDS_MARK } });
  const at = text.indexOf(RECORDS_MARK_TEXT);
  const parts: Buffer[] = [Buffer.from(text.slice(0, at)), OPEN];
  cdrs.forEach((cdr, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(jsonBytes(cdr));
  });
  parts.push(CLOSE, Buffer.from(text.slice(at + RECORDS_MARK_TEXT.length)));
  return Buffer.concat(parts);
}
