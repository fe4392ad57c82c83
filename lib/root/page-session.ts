import 'server-only';
/**
 * The signed-in account of a page request (server components), from the same cookie and vault as
 * the API's; without one, a redirect to sign-in that comes back afterwards.
 */
import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { accountFromCookies, type SignedInAccount } from '../auth/session';
import { signInHref } from '../ui/paths';
import { getServices } from './services';

/** Who is signed in, as pages may show it: never the session id or the secret. */
export interface PageAccount {
  apiKey: string;
  enterpriseId?: string;
}

export async function currentAccount(): Promise<SignedInAccount | null> {
  return accountFromCookies(await cookies(), await headers(), (await getServices()).store.vault);
}

/** The account, or a redirect to sign-in that comes back to `callbackPath` afterwards. */
export async function requirePageSession(callbackPath?: string): Promise<PageAccount> {
  const account = await currentAccount();
  if (!account) redirect(signInHref(callbackPath));
  return { apiKey: account.apiKey, ...(account.enterpriseId ? { enterpriseId: account.enterpriseId } : {}) };
}
