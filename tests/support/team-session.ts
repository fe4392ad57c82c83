/**
 * A team person's session for route-level tests: a vault entry as a sign-in through the identity
 * provider leaves it (lib/team/sign-in.ts), the person on the People list, and the cookie a
 * browser would send (next-auth's encrypted JWT naming the session). Route handlers are then called
 * as Next.js calls them, with a NextRequest carrying that cookie.
 */
import { randomUUID } from 'node:crypto';
import { encode } from 'next-auth/jwt';
import { NextRequest } from 'next/server';
import { authSecret } from '../../lib/auth/server';
import type { Role } from '../../lib/team';
import type { Services } from '../../lib/root/services';
import { HOUR_MS } from '../../lib/time/units';

export const SESSION_COOKIE = 'next-auth.session-token';
export const TEST_ORIGIN = 'http://dashboard.test';

export interface TestSession {
  sid: string;
  person: string;
  cookie: string;
}

/** Opens a session for `person` in `role` on the team's first account. */
export async function teamSession(
  services: Pick<Services, 'vault' | 'team' | 'store'>,
  person: string,
  role: Role,
  opts: { name?: string; roleCheckedAt?: number; sealedTokens?: string | null } = {},
): Promise<TestSession> {
  const account = (await services.team.accounts())[0];
  if (!account) throw new Error('no team account: set TEAM_API_KEY in the test configuration');
  const now = Date.now();
  const sid = randomUUID();
  await services.vault.put({
    sid,
    apiKey: account.apiKey,
    enterpriseId: account.enterpriseId,
    sealedSecret: '',
    createdAt: now,
    expiresAt: now + HOUR_MS,
    team: {
      person,
      role,
      roleCheckedAt: opts.roleCheckedAt ?? now,
      sealedTokens: opts.sealedTokens ?? null,
      account: account.id,
    },
  });
  await services.store.db
    .insertInto('team_people')
    .values({
      id: person,
      name: opts.name ?? person,
      email: null,
      role,
      first_seen_at: now,
      last_seen_at: now,
      suspended_at: null,
      suspended_by: null,
    })
    .onConflict((oc) => oc.column('id').doUpdateSet({ role }))
    .execute();
  return { sid, person, cookie: await cookieOf(sid) };
}

/** The session cookie's value for a vault session id. */
export async function cookieOf(sid: string): Promise<string> {
  return encode({ token: { sid }, secret: authSecret() });
}

/** A request to a route handler, as the browser of `session` sends it (same-origin). */
export function routeRequest(
  path: string,
  session: TestSession | null,
  init: { method?: string; body?: unknown; accept?: string } = {},
): NextRequest {
  const headers = new Headers({ 'sec-fetch-site': 'same-origin', origin: TEST_ORIGIN });
  if (session) headers.set('cookie', `${SESSION_COOKIE}=${session.cookie}`);
  if (init.accept) headers.set('accept', init.accept);
  if (init.body !== undefined) headers.set('content-type', 'application/json');
  return new NextRequest(`${TEST_ORIGIN}${path}`, {
    method: init.method ?? 'GET',
    headers,
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
}

/** The `context` argument Next.js passes a dynamic route's handler. */
export const params = <P extends Record<string, string>>(p: P) => ({ params: Promise.resolve(p) });
