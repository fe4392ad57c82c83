import 'server-only';
/**
 * Wraps a route handler: for a route that can spend an upstream call, refuses a request from
 * another site first (lib/http/request-intent.ts); resolves the signed-in account itself (401
 * problem without one); reads and checks the request's query when the route names its reader
 * (`query`: 400 naming each parameter, before the handler runs, so nothing is spent); hands the
 * handler the process's services and the parsed query; turns anything thrown into problem details,
 * in the request's language (lib/i18n/request-locale.ts); keeps answers out of shared caches.
 */
import type { NextRequest } from 'next/server';
import { accountFromCookies, endedSessionReason, type SignedInAccount } from '../auth/server';
import { unauthenticated } from '../auth/server';
import { badRequest, crossSiteRefused, problemResponse } from '../http/problem';
import { localeOfRequest } from '../i18n/request-locale';
import type { ParseResult } from '../query/query';
import { toProblem } from './error-problems';
import { crossSiteRefusalOf } from '../http/request-intent';
import { log } from '../log';
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
}

export function withAccount<C = unknown, Q = undefined>(
  handler: AccountHandler<C, Q>,
  options: RouteOptions<Q, C> = {},
) {
  return async (req: NextRequest, context: C): Promise<Response> => {
    // Whoever asks, signed in or not: a 401 is said in their language too. (A team person's
    // profile, once there is one, comes first: lib/i18n/negotiate.ts.)
    const locale = localeOfRequest(req);
    try {
      const services = await getServices();
      if (options.refuseCrossSite) {
        const reason = crossSiteRefusalOf(req, services.config.NEXTAUTH_URL);
        if (reason !== null) {
          log.info('request.cross_site_refused', { method: req.method, path: req.nextUrl.pathname, reason });
          throw crossSiteRefused();
        }
      }
      const account = await accountFromCookies(req.cookies, req.headers, services.store.vault);
      if (!account) throw unauthenticated(await endedSessionReason(req.cookies, req.headers, services.store.vault));
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
      const { problem, headers } = toProblem(err, locale);
      return problemResponse(problem, locale, headers);
    }
  };
}
