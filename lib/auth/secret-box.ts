import 'server-only';
/**
 * Seals the API secrets kept for token renewal (AES-256-GCM, key derived from NEXTAUTH_SECRET with
 * HKDF), so the SQLite file alone does not give them away. A changed NEXTAUTH_SECRET makes every
 * sealed secret unreadable: those sessions simply have to sign in again.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const INFO = 'sms-dashboard credential vault v1';

/** The last key derived, by its master secret: one process has one (the copy unseals at every page). */
let derived: { secret: string; key: Buffer } | null = null;

function keyFrom(secret: string): Buffer {
  if (derived?.secret !== secret) derived = { secret, key: Buffer.from(hkdfSync('sha256', secret, 'vault', INFO, 32)) };
  return derived.key;
}

export function seal(plain: string, masterSecret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFrom(masterSecret), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join(
    '.',
  );
}

/** Returns null when the box was sealed with another key or tampered with. */
export function unseal(sealed: string, masterSecret: string): string | null {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyFrom(masterSecret), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
