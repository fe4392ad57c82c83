/**
 * Answers as the server writes them in a zone, from what the browser holds: a record (its
 * timestamps and its own link; the server's presenter, ./present.ts, keeps each one it writes), and a
 * page shown in the other zone — the same records and instants, its links written again by the
 * query codec, the parts of its range the local history could not search moved to that zone. The
 * zone switch shows such a page at once: asked of the server instead, a recent range's page,
 * expired after two minutes, would be asked of the upstream again for what is on screen already.
 */
import type { TransactionsPage } from './api';
import type { Cdr } from '../cdr/schema';
import { TIMESTAMP_FIELDS } from '../cdr/fields';
import { API_PATHS } from '../http/paths';
import { rezoneRange } from '../query/draft';
import { apiHref, queryOfApiHref } from '../query/page-url';
import { rezoneTimestamp, type Zone } from '../time/zones';

/** The record as the dashboard answers it in `tz`: its timestamps in that zone, its link to itself. */
export function cdrInZone(cdr: Cdr, tz: Zone): Cdr {
  const out: Record<string, unknown> = { ...cdr };
  for (const key of TIMESTAMP_FIELDS) {
    const value = out[key];
    if (typeof value === 'string' && value !== '') out[key] = rezoneTimestamp(value, tz);
  }
  out._links = { ...(cdr._links ?? {}), self: { href: API_PATHS.transaction(cdr.trx_id, tz) } };
  return out as Cdr;
}

/** An answer's link in another zone: the query it carries, written in `to`; a link that is no query, as it is. */
function linkInZone(link: { href: string } | undefined, to: Zone): { href: string } | undefined {
  if (!link) return link;
  const query = queryOfApiHref(link.href);
  return query ? { href: apiHref({ ...query, tz: to }) } : link;
}

export function pageInZone(page: TransactionsPage, to: Zone): TransactionsPage {
  const from = page._meta.tz;
  if (from === to) return page;
  const links = Object.fromEntries(
    Object.entries(page._links).map(([name, link]) => [name, linkInZone(link, to)]),
  ) as TransactionsPage['_links'];
  // Shown again, not asked again: no call, from the copy at hand (the local history's stays so).
  const meta = {
    ...page._meta,
    tz: to,
    calls: 0,
    source: page._meta.source === 'history' ? ('history' as const) : ('cache' as const),
  };
  if (page._meta.uncovered) meta.uncovered = page._meta.uncovered.map((r) => rezoneRange(r, from, to));
  return {
    ...page,
    _links: links,
    _embedded: { ...page._embedded, cdrs: page._embedded.cdrs.map((c) => cdrInZone(c, to)) },
    _meta: meta,
  };
}
