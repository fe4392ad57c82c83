/**
 * A page of results as it would be answered in the other zone: the same records and the same
 * instants, written in that zone — their timestamps, the links (their range's wall clocks and
 * `tz`), the parts of the range the local history could not search. The zone switch shows it at
 * once: asked of the server instead, a recent range's page, expired after two minutes, would be
 * asked of the upstream again and cost a call for what is on screen already. Pure.
 */
import type { TransactionsPage } from './api';
import type { Cdr } from '../cdr/schema';
import { TIMESTAMP_FIELDS } from '../cdr/fields';
import { RANGE_PARAMS } from '../query/query';
import { rezoneTimestamp, type Zone } from '../time/zones';
import { API_PATHS } from '../http/paths';
import { rezoneWallClock } from './range';

/** An API link with its range's wall clocks and `tz` moved from `from` to `to`; anything else as it is. */
function rezoneHref(href: string, from: Zone, to: Zone): string {
  const [path, search = ''] = href.split('?', 2) as [string, string?];
  const params = new URLSearchParams(search);
  for (const name of RANGE_PARAMS) {
    const value = params.get(name);
    if (value) params.set(name, rezoneWallClock(value, from, to));
  }
  params.set('tz', to);
  return `${path}?${params.toString()}`;
}

function rezoneCdr(cdr: Cdr, to: Zone): Cdr {
  const out: Record<string, unknown> = { ...cdr };
  for (const key of TIMESTAMP_FIELDS) {
    const value = out[key];
    if (typeof value === 'string' && value !== '') out[key] = rezoneTimestamp(value, to);
  }
  out._links = { ...(cdr._links ?? {}), self: { href: API_PATHS.transaction(cdr.trx_id, to) } };
  return out as Cdr;
}

export function rezonePage(page: TransactionsPage, to: Zone): TransactionsPage {
  const from = page._meta.tz;
  if (from === to) return page;
  const links = Object.fromEntries(
    Object.entries(page._links).map(([name, link]) => [name, link && { href: rezoneHref(link.href, from, to) }]),
  ) as TransactionsPage['_links'];
  // Shown again, not asked again: no call, from the copy at hand (the local history's stays so).
  const meta = {
    ...page._meta,
    tz: to,
    calls: 0,
    source: page._meta.source === 'history' ? ('history' as const) : ('cache' as const),
  };
  if (page._meta.uncovered) {
    meta.uncovered = page._meta.uncovered.map((r) => ({
      dateFrom: rezoneWallClock(r.dateFrom, from, to),
      dateTo: rezoneWallClock(r.dateTo, from, to),
    }));
  }
  return {
    ...page,
    _links: links,
    _embedded: { ...page._embedded, cdrs: page._embedded.cdrs.map((c) => rezoneCdr(c, to)) },
    _meta: meta,
  };
}
