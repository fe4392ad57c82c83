import 'server-only';
/**
 * Wraps a route handler: for a route that can spend an upstream call, refuses a request from
 * another site first (lib/http/request-intent.ts); resolves the signed-in account itself (401
 * problem without one); hands the handler the process's services; turns anything thrown into
 * problem details, in the request's language (lib/i18n/request-locale.ts); keeps answers out of
 * shared caches.
 */
import type { NextRequest } from 'next/server';
import { accountFromCookies, endedSessionReason, type SignedInAccount } from '../auth/server';
import { unauthenticated } from '../auth/server';
import { crossSiteRefused, problemResponse } from '../http/problem';
import { localeOfRequest } from '../i18n/request-locale';
import { toProblem } from './error-problems';
import { crossSiteRefusalOf } from '../http/request-intent';
import { log } from '../log';
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
}

export function withAccount<C>(handler: AccountHandler<C>, options: RouteOptions = {}) {
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
      const res = await handler(req, account, services, context);
      if (!res.headers.has('Cache-Control')) res.headers.set('Cache-Control', 'private, no-store');
      return res;
    } catch (err) {
      const { problem, headers } = toProblem(err, locale);
      return problemResponse(problem, locale, headers);
    }
  };
}
