/**
 * A record as the dashboard answers it: timestamps in the person's zone (the upstream writes UTC),
 * and a link to its own page in the dashboard's API. Searches and lookups present records alike.
 *
 * A cached page is asked for again and again, so a record is presented once per zone: the
 * presented copy is kept beside the upstream's record (weakly: it goes when the cached page goes)
 * and shared by every answer that shows it. Nothing changes a presented record, so its JSON is
 * kept too (json-text.ts).
 */
import { TIMESTAMP_FIELDS } from '../cdr/fields';
import type { Cdr } from '../cdr/schema';
import { keepJson } from './json-text';
import { API_PATHS } from './paths';
import { rezoneTimestamp, type Zone } from '../time/zones';

const presented = new WeakMap<Cdr, Partial<Record<Zone, Cdr>>>();

/** The record as the dashboard answers it in `tz`; shared, so never to be changed by the caller. */
export function presentCdr(cdr: Cdr, tz: Zone): Cdr {
  let byZone = presented.get(cdr);
  const known = byZone?.[tz];
  if (known) return known;
  const out: Record<string, unknown> = { ...cdr };
  for (const key of TIMESTAMP_FIELDS) {
    const value = out[key];
    if (typeof value === 'string' && value !== '') out[key] = rezoneTimestamp(value, tz);
  }
  out._links = { ...(cdr._links ?? {}), self: { href: API_PATHS.transaction(cdr.trx_id, tz) } };
  const record = out as Cdr;
  keepJson(record);
  if (!byZone) presented.set(cdr, (byZone = {}));
  byZone[tz] = record;
  return record;
}
