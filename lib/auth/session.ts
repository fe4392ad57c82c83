import 'server-only';
/**
 * Resolves the signed-in account from next-auth's session cookie, server-side. The cookie gives a
 * session id; the vault must still hold it (sign-out deletes it, so a copied cookie dies with the
 * session). Route handlers and pages each resolve it themselves (lib/root/with-account.ts,
 * lib/root/page-session.ts): a proxy/middleware check alone is not enough.
 */
import { getToken } from 'next-auth/jwt';
import type { UpstreamAccount } from '../upstream/server';
import type { TeamSession, VaultEntry, VaultStore } from './vault';
import { authSecret } from './auth-secret';
import { decodeOnce } from './decoded-tokens';
import { SESSIONS_END_REASONS, type SessionsEndReason } from './api';
import { unseal } from './secret-box';

export interface SignedInAccount extends UpstreamAccount {
  sid: string;
  /** A team person's session (lib/team): who, in which role, on which team account; null for a personal one. */
  team: TeamSession | null;
}

export type CookieSource = { getAll(): { name: string; value: string }[] };

/** The session cookie's token (decoded once per cookie: decoded-tokens.ts). */
function sessionToken(cookieSource: CookieSource, headerSource: Headers) {
  return getToken({
    // The only header getToken reads (a `Bearer` token when there is no cookie).
    req: {
      cookies: cookieSource,
      headers: { authorization: headerSource.get('authorization') ?? undefined },
    } as unknown as Parameters<typeof getToken>[0]['req'],
    secret: authSecret(),
    decode: decodeOnce,
  });
}

/**
 * Why the request's session ended, when every session of its API key was ended at once (sign out
 * everywhere, a secret refused upstream: end-sessions.ts) and it would still be alive; null when
 * there is no such session or it ended otherwise (signed out, expired). Asked only once
 * accountFromCookies found no account.
 */
export async function endedSessionReason(
  cookieSource: CookieSource,
  headerSource: Headers,
  vault: VaultStore,
): Promise<SessionsEndReason | null> {
  const token = await sessionToken(cookieSource, headerSource);
  if (!token?.sid) return null;
  const reason = await vault.endedReason(token.sid, Date.now());
  return (SESSIONS_END_REASONS as readonly (string | null)[]).includes(reason) ? (reason as SessionsEndReason) : null;
}

/** The account of a request's session cookie, or null when there is none (or it was revoked). */
export async function accountFromCookies(
  cookieSource: CookieSource,
  headerSource: Headers,
  vault: VaultStore,
): Promise<SignedInAccount | null> {
  const secret = authSecret();
  const token = await sessionToken(cookieSource, headerSource);
  if (!token?.sid) return null;
  const entry = await vault.get(token.sid, Date.now());
  if (!entry) return null;
  return accountOfEntry(entry, secret);
}

/** The account a vault entry signs in as (its secret opened only when a renewal asks for it). */
export function accountOfEntry(entry: VaultEntry, secret: string = authSecret()): SignedInAccount {
  return {
    sid: entry.sid,
    apiKey: entry.apiKey,
    enterpriseId: entry.enterpriseId,
    team: entry.team ?? null,
    ...(entry.team ? { person: entry.team.person } : {}),
    credentials: async () => {
      const plain = unseal(entry.sealedSecret, secret);
      if (plain === null)
        throw new Error('The stored secret cannot be opened (NEXTAUTH_SECRET changed?); sign in again.');
      return { apiKey: entry.apiKey, secret: plain };
    },
  };
}
