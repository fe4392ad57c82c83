import 'server-only';
/**
 * Resolves the signed-in account from next-auth's session cookie, server-side. The cookie gives a
 * session id; the vault must still hold it (sign-out deletes it, so a copied cookie dies with the
 * session). Route handlers and pages each call this themselves: a proxy/middleware check alone is
 * not enough.
 */
import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { getToken } from 'next-auth/jwt';
import { getStore } from '../store';
import type { UpstreamAccount } from '../server/upstream-gateway';
import { unauthenticated } from '../http/problem';
import { authSecret } from './auth-secret';
import { unseal } from './secret-box';

export interface SignedInAccount extends UpstreamAccount {
  sid: string;
}

type CookieSource = { getAll(): { name: string; value: string }[] };

async function accountFrom(cookieSource: CookieSource, headerSource: Headers): Promise<SignedInAccount | null> {
  const secret = authSecret();
  const token = await getToken({
    req: { cookies: cookieSource, headers: Object.fromEntries(headerSource.entries()) } as unknown as Parameters<typeof getToken>[0]['req'],
    secret,
  });
  if (!token?.sid) return null;
  const entry = await getStore().vault.get(token.sid, Date.now());
  if (!entry) return null;
  return {
    sid: entry.sid,
    apiKey: entry.apiKey,
    enterpriseId: entry.enterpriseId,
    credentials: async () => {
      const plain = unseal(entry.sealedSecret, secret);
      if (plain === null) throw new Error('The stored secret cannot be opened (NEXTAUTH_SECRET changed?); sign in again.');
      return { apiKey: entry.apiKey, secret: plain };
    },
  };
}

/** For route handlers: the account, or a 401 problem. */
export async function requireApiAccount(req: Request & { cookies: CookieSource }): Promise<SignedInAccount> {
  const account = await accountFrom(req.cookies, req.headers);
  if (!account) throw unauthenticated();
  return account;
}

/** For pages: the account, or a redirect to sign-in that comes back here afterwards. */
export async function requirePageSession(callbackPath?: string): Promise<{ apiKey: string; enterpriseId?: string }> {
  const account = await accountFrom(await cookies(), await headers());
  if (!account) {
    const target = callbackPath ? `/signin?callbackUrl=${encodeURIComponent(callbackPath)}` : '/signin';
    redirect(target);
  }
  return { apiKey: account.apiKey, ...(account.enterpriseId ? { enterpriseId: account.enterpriseId } : {}) };
}

/** For the sign-in page: whether someone is already signed in. */
export async function currentAccount(): Promise<SignedInAccount | null> {
  return accountFrom(await cookies(), await headers());
}
