import 'server-only';
/**
 * Wraps a route handler: resolves the signed-in account itself (401 problem without one), turns
 * anything thrown into problem details, and keeps answers out of shared caches.
 */
import type { NextRequest } from 'next/server';
import { requireApiAccount, type SignedInAccount } from '../auth/session';
import { problemResponse, toProblem } from './problem';

export type AccountHandler<C> = (req: NextRequest, account: SignedInAccount, context: C) => Promise<Response>;

export function withAccount<C>(handler: AccountHandler<C>) {
  return async (req: NextRequest, context: C): Promise<Response> => {
    try {
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

export function json(body: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(body), {
    ...init,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...(init.headers ?? {}) },
  });
}
