/**
 * Turns what the upstream sent (UTC, upstream links) into what the dashboard answers: timestamps in
 * the person's zone and links into the dashboard's own API that carry the whole query — the
 * upstream's links drop filters, date-to and sort (seed sample), ours never do.
 */
import type { TransactionsPage } from '../api/types';
import { TIMESTAMP_FIELDS } from '../cdr/fields';
import type { Cdr } from '../cdr/schema';
import { queryParams, type TransactionsQuery } from '../query/query';
import { rezoneTimestamp, type Zone } from '../time/zones';
import { API_PATHS } from '../ui/paths';

export function presentCdr(cdr: Cdr, tz: Zone): Cdr {
  const out: Record<string, unknown> = { ...cdr };
  for (const key of TIMESTAMP_FIELDS) {
    const value = out[key];
    if (typeof value === 'string' && value !== '') out[key] = rezoneTimestamp(value, tz);
  }
  out._links = { ...(cdr._links ?? {}), self: { href: API_PATHS.transaction(cdr.trx_id, tz) } };
  return out as Cdr;
}

export function pageLinks(query: TransactionsQuery, reachablePages: number): TransactionsPage['_links'] {
  const href = (page: number) => ({ href: `${API_PATHS.transactions}?${queryParams({ ...query, page }).toString()}` });
  const links: TransactionsPage['_links'] = { self: href(query.page), first: href(1), last: href(reachablePages) };
  if (query.page < reachablePages) links.next = href(query.page + 1);
  if (query.page > 1) links.prev = href(Math.min(query.page - 1, reachablePages));
  return links;
}
