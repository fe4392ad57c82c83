import 'server-only';
/**
 * NEXTAUTH_SECRET signs and encrypts the session cookie and seals the vault. Production must set
 * it; the demo and tests get a fixed development value with a warning, so `npm run demo` works on a
 * fresh clone.
 */
import { getConfig } from '../config';

const DEVELOPMENT_SECRET = 'development-only-secret-change-me-0123456789abcdef';
let warned = false;

export function authSecret(): string {
  const configured = getConfig().NEXTAUTH_SECRET;
  if (configured) return configured;
  if (process.env.NODE_ENV === 'production' && process.env.ALLOW_DEV_SECRET !== '1') {
    throw new Error('NEXTAUTH_SECRET must be set in production (e.g. `openssl rand -base64 32`).');
  }
  if (!warned) {
    warned = true;
    console.warn('NEXTAUTH_SECRET is not set: using a development secret. Set it for any real deployment.');
  }
  return DEVELOPMENT_SECRET;
}
