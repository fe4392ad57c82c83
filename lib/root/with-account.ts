import 'server-only';
/**
 * Wraps a route handler: for a route that can spend an upstream call, refuses a request from
 * another site first (lib/http/request-intent.ts); resolves the signed-in account itself (401
 * problem without one), a team person's role confirmed with the identity provider when due
 * (lib/team/role-check.ts); refuses a role below the route's own (403, naming the role needed) and,
 * for a role that sees personal data masked, a query that would give it away (lib/team/query-rules.ts);
 * reads and checks the request's query when the route names its reader (`query`: 400 naming each
 * parameter, before the handler runs, so nothing is spent); hands the handler the process's
 * services and the parsed query; turns anything thrown into problem details, in the request's
 * language (lib/i18n/request-locale.ts); keeps answers out of shared caches.
 */
import type { NextRequest } from 'next/server';
import { accountFromCookies, endedSessionReason, type SignedInAccount } from '../auth/server';
import { unauthenticated } from '../auth/server';
import { badRequest, crossSiteRefused, problemResponse } from '../http/problem';
import { localeOfRequest } from '../i18n/request-locale';
import type { Words } from '../i18n/message';
import { queryBody, type ParseResult, type QueryBody, type QuerySelection } from '../query/query';
import { toProblem } from './error-problems';
import { crossSiteRefusalOf } from '../http/request-intent';
import { log } from '../log';
import { refusedParam, roleAtLeast, type Role } from '../team';
import { roleNeeded, roleOf, teamSecretRefused } from '../team/server';
import { CredentialsRefusedError } from '../upstream/server';
import { getServices, type Services } from './services';

export type AccountHandler<C, Q = undefined> = (
  req: NextRequest,
  account: SignedInAccount,
  services: Services,
  context: C,
  query: Q,
) => Promise<Response>;

/**
 * Reads a route's query: the URL's parameters or the JSON body, parsed by the query codec
 * (lib/query) or a feature's reader around it. Services receive only what it returns.
 */
export type RouteQuery<Q, C = unknown> = (
  req: NextRequest,
  account: SignedInAccount,
  services: Services,
  context: C,
) => ParseResult<Q> | Promise<ParseResult<Q>>;

export interface RouteOptions<Q = undefined, C = unknown> {
  /**
   * For handlers that spend upstream calls or change what the account owns: only the dashboard's
   * own pages and scripts may ask, checked before anything else.
   */
  refuseCrossSite?: boolean;
  /** The route's query reader; its value is the handler's last argument. */
  query?: RouteQuery<Q, C>;
  /**
   * The least role the route needs (lib/team/api.ts: viewer < support < admin), and what it does,
   * said in the 403 (`msg('team.problems.roleNeeded.whatSearch')`). A personal session is the admin
   * of its own account.
   */
  role?: { least: Role; what: Words };
}

/** The request's account, its role confirmed when due; a 401 problem (saying why the session ended) without one. */
export async function requestAccount(req: NextRequest, services: Services): Promise<SignedInAccount> {
  const account = await accountFromCookies(req.cookies, req.headers, services.vault);
  if (!account) throw unauthenticated(await endedSessionReason(req.cookies, req.headers, services.vault));
  return services.team.confirm(account);
}

/** A route's role check: a role below the route's own is refused (403, naming the role needed). */
export function checkRole<Q, C>(account: SignedInAccount, options: RouteOptions<Q, C>): void {
  const role = roleOf(account);
  if (options.role && !roleAtLeast(role, options.role.least))
    throw roleNeeded(options.role.least, role, options.role.what);
}

/** What a masked role may not ask (lib/team/query-rules.ts), of a query in the codec's body form. */
function checkQueryOf(account: SignedInAccount, body: QueryBody): void {
  const role = roleOf(account);
  const refused = refusedParam(role, (name) => body[name as keyof QueryBody] ?? null);
  if (refused) throw roleNeeded('admin', role, refused.what);
}

/**
 * A route's reader whose query, once read, is held to what a masked role may ask: refused (403)
 * before the handler runs, so nothing is spent. `selectionOf` finds the search query in what the
 * reader returns (a page's request holds its CSV choice too).
 */
export function maskedRoleChecked<Q, C = unknown>(
  reader: RouteQuery<Q, C>,
  selectionOf: (query: Q) => QuerySelection,
): RouteQuery<Q, C> {
  return async (req, account, services, context) => {
    const parsed = await reader(req, account, services, context);
    if (parsed.ok) checkQueryOf(account, queryBody(selectionOf(parsed.query)));
    return parsed;
  };
}

export function withAccount<C = unknown, Q = undefined>(
  handler: AccountHandler<C, Q>,
  options: RouteOptions<Q, C> = {},
) {
  return async (req: NextRequest, context: C): Promise<Response> => {
    // Whoever asks, signed in or not: a 401 is said in their language too; once the account is
    // known, a team person's profile comes first (lib/i18n/negotiate.ts; the vault read it with the session).
    let locale = localeOfRequest(req);
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
      locale = localeOfRequest(req, account);
      checkRole(account, options);
      let query = undefined as Q;
      if (options.query) {
        const parsed = await options.query(req, account, services, context);
        if (!parsed.ok) throw badRequest(parsed.errors);
        query = parsed.query;
      }
      const res = await handler(req, account, services, context, query);
      if (!res.headers.has('Cache-Control')) res.headers.set('Cache-Control', 'private, no-store');
      return res;
    } catch (err) {
      // A team account's secret refused upstream is an admin's to replace: the person is not signed out.
      const refused = err instanceof CredentialsRefusedError && account?.team ? teamSecretRefused(err.apiKey) : err;
      const { problem, headers } = toProblem(refused, locale);
      return problemResponse(problem, locale, headers);
    }
  };
}
