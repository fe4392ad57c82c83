import 'server-only';
/**
 * next-auth's session cookie decoded once per process rather than on every request: decrypting it
 * (an HKDF key derivation, then AES-GCM) was most of what resolving a session cost. The same cookie
 * text under the same secret always decodes to the same claims, so the claims are kept — keyed by a
 * digest of secret and cookie (the cookie is a bearer credential and is not kept) — and checked on
 * each use for expiry exactly as next-auth's decoder checks them. A cookie that does not decode is
 * not remembered: it is decoded (and refused) again each time.
 *
 * Bounded: past MAX_KEPT the least recently used are dropped (a dropped one is simply decoded again).
 */
import { createHash } from 'node:crypto';
import { decode, type JWT, type JWTDecodeParams } from 'next-auth/jwt';

/** Sessions kept decoded; each is a few hundred bytes. */
export const MAX_KEPT = 10_000;
/** next-auth decodes with jose's `jwtDecrypt(…, { clockTolerance: 15 })`. */
const CLOCK_TOLERANCE_S = 15;

const kept = new Map<string, JWT>();

/** Whether jose would still accept the claims' `exp` now (seconds, floored, as jose reads the clock). */
function unexpired(claims: JWT, nowMs: number): boolean {
  const exp = claims.exp;
  return typeof exp !== 'number' || exp > Math.floor(nowMs / 1000) - CLOCK_TOLERANCE_S;
}

/** A drop-in for next-auth's `decode` (getToken's `decode` option) that decodes each cookie once. */
export async function decodeOnce(params: JWTDecodeParams): Promise<JWT | null> {
  const { token, secret } = params;
  if (!token) return null;
  const id = createHash('sha256')
    .update(String(secret))
    .update('\u0000')
    .update(params.salt ?? '')
    .update('\u0000')
    .update(token)
    .digest('base64url');
  const known = kept.get(id);
  if (known) {
    kept.delete(id);
    if (!unexpired(known, Date.now())) return null;
    kept.set(id, known);
    return known;
  }
  const claims = await decode(params);
  if (!claims) return null;
  // Shared by every request of the session from now on: nobody may change it.
  Object.freeze(claims);
  kept.set(id, claims);
  if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value as string);
  return claims;
}
