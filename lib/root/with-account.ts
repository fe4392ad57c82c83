import 'server-only';
/**
 * Wraps a route handler: resolves the signed-in account itself (401 problem without one), hands
 * the handler the process's services, turns anything thrown into problem details, and keeps
 * answers out of shared caches.
 */
import type { NextRequest } from 'next/server';
import { accountFromCookies, type SignedInAccount } from '../auth/session';
import { problemResponse, toProblem, unauthenticated } from '../http/problem';
import { getServices, type Services } from './services';

export type AccountHandler<C> = (req: NextRequest, account: SignedInAccount, services: Services, context: C) => Promise<Response>;

export function withAccount<C>(handler: AccountHandler<C>) {
  return async (req: NextRequest, context: C): Promise<Response> => {
    try {
      const services = await getServices();
      const account = await accountFromCookies(req.cookies, req.headers, services.store.vault);
      if (!account) throw unauthenticated();
      const res = await handler(req, account, services, context);
      if (!res.headers.has('Cache-Control')) res.headers.set('Cache-Control', 'private, no-store');
      return res;
    } catch (err) {
      const { problem, headers } = toProblem(err);
      return problemResponse(problem, headers);
    }
  };
}
