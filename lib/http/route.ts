import 'server-only';
/**
 * Wraps a route handler: for a route that can spend an upstream call, refuses a request from
 * another site first (lib/http/request-intent.ts); resolves the signed-in account itself (401
 * problem without one); turns anything thrown into problem details; keeps answers out of shared
 * caches.
 */
import type { NextRequest } from 'next/server';
import { requireApiAccount, type SignedInAccount } from '../auth/session';
import { getConfig } from '../config';
import { log } from '../log';
import { crossSiteRefused, problemResponse, toProblem } from './problem';
import { crossSiteRefusal } from './request-intent';

export type AccountHandler<C> = (req: NextRequest, account: SignedInAccount, context: C) => Promise<Response>;

export interface RouteOptions {
  /**
   * For handlers that spend upstream calls or change what the account owns: only the dashboard's
   * own pages and scripts may ask (lib/http/request-intent.ts), checked before anything else.
   */
  refuseCrossSite?: boolean;
}

export function withAccount<C>(handler: AccountHandler<C>, options: RouteOptions = {}) {
  return async (req: NextRequest, context: C): Promise<Response> => {
    try {
      if (options.refuseCrossSite) refuseIfCrossSite(req);
      const account = await requireApiAccount(req);
      const res = await handler(req, account, context);
      if (!res.headers.has('Cache-Control')) res.headers.set('Cache-Control', 'private, no-store');
      return res;
    } catch (err) {
      const { problem, headers } = toProblem(err);
      return problemResponse(problem, headers);
    }
  };
}

/**
 * This dashboard's origins: the one the browser reached (its Host header) and the public one
 * (NEXTAUTH_URL, which is what a browser sees behind a TLS-terminating proxy).
 */
function ownOrigins(req: NextRequest): string[] {
  const origins = [req.nextUrl.origin];
  const host = req.headers.get('host');
  if (host) origins.push(`${req.nextUrl.protocol}//${host}`);
  const publicUrl = getConfig().NEXTAUTH_URL;
  if (publicUrl) origins.push(publicUrl);
  return origins;
}

function refuseIfCrossSite(req: NextRequest): void {
  const reason = crossSiteRefusal({ secFetchSite: req.headers.get('sec-fetch-site'), origin: req.headers.get('origin') }, ownOrigins(req));
  if (reason === null) return;
  log.info('request.cross-site-refused', { method: req.method, path: req.nextUrl.pathname, reason });
  throw crossSiteRefused();
}

export function json(body: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(body), {
    ...init,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...(init.headers ?? {}) },
  });
}
