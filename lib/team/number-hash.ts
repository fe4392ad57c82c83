import 'server-only';
/**
 * A phone number as the audit log keeps it: a keyed hash, never the number. Keyed (HMAC-SHA256 under
 * a key derived from NEXTAUTH_SECRET), so the log alone cannot be turned back into numbers by hashing
 * every number of a country; the same number always gives the same hash, so an admin who types a
 * number finds who looked it up. Written the way people write it (090-1234-5678, +81 90 1234 5678)
 * it is read as the `da` filter reads it first, so every way of typing one number finds it.
 *
 * A changed NEXTAUTH_SECRET gives other hashes: entries written before can no longer be found by number.
 */
import { createHmac, hkdfSync } from 'node:crypto';
import { authSecret } from '../auth/server';
import { filterDef } from '../query/filters';

const INFO = 'sms-dashboard audit number v1';
let derived: { secret: string; key: Buffer } | undefined;

function keyFor(secret: string): Buffer {
  if (derived?.secret !== secret) derived = { secret, key: Buffer.from(hkdfSync('sha256', secret, 'audit', INFO, 32)) };
  return derived.key;
}

/** The number as the `da` filter reads it (digits, country code first). */
export function normalisedNumber(typed: string): string {
  return filterDef('da').normalise?.(typed.trim()) ?? typed.trim();
}

/** The keyed hash of a number (64 hex digits). */
export function numberHash(typed: string, secret: string = authSecret()): string {
  return createHmac('sha256', keyFor(secret)).update(normalisedNumber(typed), 'utf8').digest('hex');
}
