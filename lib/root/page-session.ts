import 'server-only';
/**
 * The signed-in account of a page request (server components), from the same cookie and vault as
 * the API's; without one, a redirect to sign-in that comes back afterwards.
 */
import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { cache } from 'react';
import type { SessionsEndReason } from '../auth';
import { accountFromCookies, endedSessionReason, type SignedInAccount } from '../auth/server';
import type { SignInErrorCode } from '../auth';
import { unlessStoreUnavailable } from '../db/unavailable';
import { ProblemError } from '../http/problem';
import type { Role } from '../team';
import { roleOf } from '../team/server';
import { signInHref } from '../http/paths';
import { REQUEST_PATH_HEADER, safeRequestPath } from '../http/request-path';
import { preferredZoneOf, ZONE_COOKIE } from '../query/zone-preference';
import type { Zone } from '../time/zones';
import { getServices } from './services';

/** Who is signed in, as pages may show it: never the session id or the secret. */
export interface PageAccount {
  apiKey: string;
  enterpriseId?: string;
  /** The role (lib/team/api.ts); a personal session is the admin of its own account. */
  role: Role;
  /** A team person: their name and the team account they work on (by its label). */
  person?: { name: string; account: string };
}

/**
 * The page's account, a team person's role confirmed when due (a session that ended meanwhile: none).
 * Resolved once per request (React's `cache`): the signed-in layout, the page's own look and the
 * page's language (./intl-request.ts, a team person's profile first) share one vault read.
 */
export const currentAccount = cache(async (): Promise<SignedInAccount | null> => {
  const services = await getServices();
  const account = await accountFromCookies(await cookies(), await headers(), services.vault);
  if (!account) return null;
  try {
    return await services.team.confirm(account);
  } catch (err) {
    if (err instanceof ProblemError && err.problem.status === 401) return null;
    throw err;
  }
});

/** The zone the person last picked (lib/query/zone-preference.ts), for a page's first paint. */
export async function preferredZone(): Promise<Zone> {
  return preferredZoneOf((await cookies()).get(ZONE_COOKIE)?.value);
}

/** Sign-in's code for why every session of a key ended (lib/auth/sign-in-errors.ts). */
const ENDED_CODES = {
  'credentials-refused': 'CredentialsRefused',
  'signed-out-everywhere': 'SignedOutEverywhere',
  suspended: 'Suspended',
  'role-removed': 'RoleRemoved',
  'role-unconfirmed': 'RoleUnconfirmed',
} as const satisfies Record<SessionsEndReason, SignInErrorCode>;

/**
 * A page's session: its account, or `unavailable` while the store cannot be reached (a database
 * restarting): the page says so and tries again, and the session is neither checked nor ended.
 */
export type PageSession = { account: PageAccount } | { unavailable: true };

/**
 * The account, or a redirect to sign-in that comes back to `callbackPath` afterwards; saying why,
 * when every session of the key was ended at once.
 */
export async function requirePageSession(callbackPath?: string): Promise<PageSession> {
  const looked = await unlessStoreUnavailable(
    (async () => {
      const account = await currentAccount();
      const ended = account
        ? null
        : await endedSessionReason(await cookies(), await headers(), (await getServices()).vault);
      return { account, ended };
    })(),
    null,
  );
  if (!looked) return { unavailable: true };
  const { account, ended } = looked;
  if (!account) redirect(signInHref(callbackPath, ended ? ENDED_CODES[ended] : undefined));
  const person = account.team ? await (await getServices()).team.whoIs(account) : null;
  return {
    account: {
      apiKey: account.apiKey,
      ...(account.enterpriseId ? { enterpriseId: account.enterpriseId } : {}),
      role: roleOf(account),
      ...(person ? { person: { name: person.name, account: person.account } } : {}),
    },
  };
}

/** Whether someone is signed in already; no while the store cannot be reached (sign-in then says so itself). */
export async function signedInAlready(): Promise<boolean> {
  return (await unlessStoreUnavailable(currentAccount(), null)) !== null;
}

/**
 * A page's own look at its session. The layout's check runs when a page is loaded whole, not on a
 * click from one signed-in page to another (Next.js keeps the shared layout and renders only the
 * page), so each page looks again: a session ended meanwhile (a person suspended, signed out
 * everywhere, their role gone) meets the sign-in page, told why, at the next click.
 */
export async function recheckPageSession(): Promise<void> {
  await requirePageSession(safeRequestPath((await headers()).get(REQUEST_PATH_HEADER)) ?? undefined);
}
