/**
 * Turns what the upstream sent (UTC, upstream links) into what the dashboard answers: timestamps in
 * the person's zone and links into the dashboard's own API that carry the whole query — the
 * upstream's links drop filters, date-to and sort (seed sample), ours never do.
 *
 * A cached page is asked for again and again, so a record is presented once per zone: the
 * presented copy is kept beside the upstream's record (weakly: it goes when the cached page goes)
 * and shared by every answer that shows it. Nothing changes a presented record, so its JSON is
 * kept too (lib/http/json-text.ts).
 */
import type { TransactionsPage } from './api';
import type { Cdr } from '../cdr/schema';
import { keepJson } from '../http/json-text';
import { queryParams, type TransactionsQuery } from '../query/query';
import type { Zone } from '../time/zones';
import { cdrInZone } from './page-in-zone';
import { API_PATHS } from '../http/paths';

const presented = new WeakMap<Cdr, Partial<Record<Zone, Cdr>>>();

/** The record as the dashboard answers it in `tz`; shared, so never to be changed by the caller. */
export function presentCdr(cdr: Cdr, tz: Zone): Cdr {
  let byZone = presented.get(cdr);
  const known = byZone?.[tz];
  if (known) return known;
  const record = cdrInZone(cdr, tz);
  keepJson(record);
  if (!byZone) presented.set(cdr, (byZone = {}));
  byZone[tz] = record;
  return record;
}

export function pageLinks(query: TransactionsQuery, reachablePages: number): TransactionsPage['_links'] {
  // `page` is the last parameter of the canonical form: the links differ only there.
  const { page: _page, ...rest } = query;
  const prefix = `${API_PATHS.transactions}?${queryParams(rest).toString()}&page=`;
  const href = (page: number) => ({ href: `${prefix}${page}` });
  const links: TransactionsPage['_links'] = { self: href(query.page), first: href(1), last: href(reachablePages) };
  if (query.page < reachablePages) links.next = href(query.page + 1);
  if (query.page > 1) links.prev = href(Math.min(query.page - 1, reachablePages));
  return links;
}
