import 'server-only';
/**
 * ETags of the dashboard's answers. The tag covers what a page holds — the records and the query
 * they answer — not its `_meta` (age, quota), which changes on every request: a client that has
 * the same records is told 304 and keeps its copy. Each record's part is the digest of its JSON
 * text, kept with a presented record (lib/http/json-text.ts), so a cached page's tag hashes a few
 * hundred bytes, not the records again.
 */
import { createHash } from 'node:crypto';
import type { TransactionsPage } from './api';
import { jsonDigest } from '../http/json-text';

export function etagOf(page: TransactionsPage): string {
  // The query (its self link), the total, and each record's digest, NUL-separated, hashed at once.
  let text = `${page._links.self.href}\u0000${page._embedded.total_found}`;
  for (const cdr of page._embedded.cdrs) text += `\u0000${jsonDigest(cdr)}`;
  return `W/"${createHash('sha1').update(text).digest('base64url').slice(0, 27)}"`;
}

/** Whether the request's If-None-Match names this tag (weak comparison, RFC 9110 §13.1.2). */
export function notModified(req: Request, etag: string): boolean {
  const header = req.headers.get('if-none-match');
  if (!header) return false;
  const bare = etag.replace(/^W\//, '');
  return header === '*' || header.split(',').some((t) => t.trim().replace(/^W\//, '') === bare);
}
