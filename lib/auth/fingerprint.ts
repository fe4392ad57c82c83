import 'server-only';
/**
 * A keyed hash for values that are neither kept nor logged as they are: an API key nobody has seen
 * the upstream accept (it may be a secret pasted into the wrong field), a client's address. Keyed
 * with NEXTAUTH_SECRET, so a short fingerprint of a guessable value cannot be reversed by hashing
 * guesses; the same value always gives the same fingerprint, so log lines about one key can still
 * be told apart from another's.
 */
import { createHmac, hkdfSync } from 'node:crypto';
import { authSecret } from './auth-secret';

const INFO = 'sms-dashboard fingerprint v1';
let derived: { secret: string; key: Buffer } | undefined;

function keyFor(secret: string): Buffer {
  if (derived?.secret !== secret)
    derived = { secret, key: Buffer.from(hkdfSync('sha256', secret, 'fingerprint', INFO, 32)) };
  return derived.key;
}

/** The full fingerprint (64 hex digits), for the store. */
export function fingerprint(value: string, secret: string = authSecret()): string {
  return createHmac('sha256', keyFor(secret)).update(value, 'utf8').digest('hex');
}

/**
 * A short fingerprint for log lines: `fp:3f9a0c51d2e7b804`. Sixteen hex digits, the shortest the
 * logger keeps whole (lib/log.ts reads a shorter run of digits as a phone number).
 */
export function logFingerprint(value: string, secret: string = authSecret()): string {
  return `fp:${fingerprint(value, secret).slice(0, 16)}`;
}
