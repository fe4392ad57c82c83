/**
 * The zone a person last picked, remembered in a cookie so that a page opened without `tz` in its
 * URL (the header's links, a bookmark of a bare page, a new visit) opens in it: someone who works
 * in JST picks it once. Not a secret and not the session's: a preference of this browser, read by
 * the signed-in pages on the server (their first paint) and set by the zone switch.
 */
import { ZONES, type Zone } from '../time/zones';
import { QUERY_DEFAULTS } from './query';

export const ZONE_COOKIE = 'sms-zone';
/** A year: a preference, renewed each time it is picked. */
const KEEP_S = 365 * 24 * 3600;

/** The zone a cookie's value names; the query's default when it names none. */
export function preferredZoneOf(cookie: string | undefined | null): Zone {
  const named = (cookie ?? '').toUpperCase();
  return (ZONES as readonly string[]).includes(named) ? (named as Zone) : QUERY_DEFAULTS.tz;
}

/** The Set-Cookie text (document.cookie's) that remembers `zone`. */
export function zoneCookie(zone: Zone, secure: boolean): string {
  return `${ZONE_COOKIE}=${zone}; Path=/; Max-Age=${KEEP_S}; SameSite=Lax${secure ? '; Secure' : ''}`;
}
