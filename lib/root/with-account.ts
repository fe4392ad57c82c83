import 'server-only';
/**
 * Wraps a route handler: for a route that can spend an upstream call, refuses a request from
 * another site first (lib/http/request-intent.ts); resolves the signed-in account itself (401
 * problem without one), a team person's role confirmed with the identity provider when due
 * (lib/team/role-check.ts); refuses a role below the route's own (403, naming the role needed) and,
 * for a role that sees personal data masked, a query that would give it away (lib/team/query-rules.ts);
 * hands the handler the process's services; turns anything thrown into problem details; keeps
 * answers out of shared caches.
 */
import type { NextRequest } from 'next/server';
import { accountFromCookies, endedSessionReason, type SignedInAccount } from '../auth/server';
import { unauthenticated } from '../auth/server';
import { crossSiteRefused, problemResponse } from '../http/problem';
import { toProblem } from './error-problems';
import { crossSiteRefusalOf } from '../http/request-intent';
import { log } from '../log';
import { refusedParam, roleAtLeast, type Role } from '../team';
import { roleNeeded, roleOf, teamSecretRefused } from '../team/server';
import { CredentialsRefusedError } from '../upstream/server';
import { getServices, type Services } from './services';

export type AccountHandler<C> = (
  req: NextRequest,
  account: SignedInAccount,
  services: Services,
  context: C,
) => Promise<Response>;

export interface RouteOptions {
  /**
   * For handlers that spend upstream calls or change what the account owns: only the dashboard's
   * own pages and scripts may ask, checked before anything else.
   */
  refuseCrossSite?: boolean;
  /**
   * The least role the route needs (lib/team/api.ts: viewer < support < admin), and what it does,
   * said in the 403 ("Searching the records"). A personal session is the admin of its own account.
   */
  role?: { least: Role; what: string };
  /**
   * The route reads a query from its URL's parameters: for a masked role, the parameters it may not
   * send are refused before anything is read or spent.
   */
  readsQuery?: boolean;
}

/** The request's account, its role confirmed when due; a 401 problem (saying why the session ended) without one. */
export async function requestAccount(req: NextRequest, services: Services): Promise<SignedInAccount> {
  const account = await accountFromCookies(req.cookies, req.headers, services.vault);
  if (!account) throw unauthenticated(await endedSessionReason(req.cookies, req.headers, services.vault));
  return services.team.confirm(account);
}

/** The role checks of a route, in order: the role itself, then what a masked role may ask. */
export function checkRole(req: NextRequest, account: SignedInAccount, options: RouteOptions): void {
  const role = roleOf(account);
  if (options.role && !roleAtLeast(role, options.role.least))
    throw roleNeeded(options.role.least, role, options.role.what);
  if (options.readsQuery) {
    const refused = refusedParam(role, (name) => req.nextUrl.searchParams.get(name));
    if (refused) throw roleNeeded('admin', role, refused.what);
  }
}

/** The role checks of a query read from a JSON body (an export's), as `readsQuery` does for a URL's. */
export function checkQueryOf(account: SignedInAccount, params: Record<string, unknown>): void {
  const role = roleOf(account);
  const refused = refusedParam(role, (name) => (typeof params[name] === 'string' ? (params[name] as string) : null));
  if (refused) throw roleNeeded('admin', role, refused.what);
}

export function withAccount<C>(handler: AccountHandler<C>, options: RouteOptions = {}) {
  return async (req: NextRequest, context: C): Promise<Response> => {
    let account: SignedInAccount | null = null;
    try {
      const services = await getServices();
      if (options.refuseCrossSite) {
        const reason = crossSiteRefusalOf(req, services.config.NEXTAUTH_URL);
        if (reason !== null) {
          log.info('request.cross_site_refused', { method: req.method, path: req.nextUrl.pathname, reason });
          throw crossSiteRefused();
        }
      }
      account = await requestAccount(req, services);
      checkRole(req, account, options);
      const res = await handler(req, account, services, context);
      if (!res.headers.has('Cache-Control')) res.headers.set('Cache-Control', 'private, no-store');
      return res;
    } catch (err) {
      // A team account's secret refused upstream is an admin's to replace: the person is not signed out.
      if (err instanceof CredentialsRefusedError && account?.team) {
        const { problem, headers } = toProblem(teamSecretRefused(err.apiKey));
        return problemResponse(problem, headers);
      }
      const { problem, headers } = toProblem(err);
      return problemResponse(problem, headers);
    }
  };
}
