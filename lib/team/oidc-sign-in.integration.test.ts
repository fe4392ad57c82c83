/**
 * Sign-in with the organisation's identity provider, end to end but for the browser: a real OpenID
 * Connect provider (node-oidc-provider, tests/support/oidc-provider.ts) and next-auth with the
 * dashboard's own options (built as its route builds them: lib/root/auth-deps.ts), driven through
 * every redirect of the authorization code flow with PKCE and state (cookies kept per origin, as a
 * browser would). next-auth is called the way a Node handler calls it (its App Router entry reads
 * Next.js's request scope, which only a running Next.js has; the e2e suite signs in through that).
 * Then what the issue asks of roles:
 *  - a person's groups give their role; someone in none is refused, saying why, on the audit log;
 *  - a role changed at the provider takes effect at the next request after TEAM_ROLE_TTL_SECONDS,
 *    and a person taken out of every group (or whose grant is revoked) is signed out, told why;
 *  - an admin's suspension ends the person's sessions at once and refuses their next sign-in;
 *  - the team's secret is in no answer of any of this.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NextRequest } from 'next/server';
import NextAuth from 'next-auth';
import { authOptions } from '../auth/server';
import { authDepsOf } from '../root/auth-deps';
import { CookieJar } from '../../tests/support/cookie-jar';
import {
  passwordOf,
  startOidcProvider,
  TEST_GROUPS,
  type RunningOidcProvider,
} from '../../tests/support/oidc-provider';
import { startHarness, type Harness } from '../../tests/support/service-harness';
import { TEST_ORIGIN } from '../../tests/support/team-session';
import { formatWallClock } from '../time/zones';

let h: Harness;
let idp: RunningOidcProvider;
/** Seconds added to the services' clock: a role's age without waiting for it. */
let ahead = 0;

vi.mock('@/lib/root/services', async (original) => ({
  ...(await original<typeof import('../root/services')>()),
  getServices: async () => h,
}));

const transactions = await import('../../app/api/transactions/route');
const session = await import('../../app/api/team/session/route');
const person = await import('../../app/api/team/people/[id]/route');
const NO_CONTEXT = undefined as never;
const TEAM_SECRET = 'minato-secret';
/** Every byte the dashboard answered during the flows. */
const answered: string[] = [];

beforeAll(async () => {
  vi.stubEnv('NEXTAUTH_URL', TEST_ORIGIN);
  idp = await startOidcProvider({ redirectUris: [`${TEST_ORIGIN}/api/auth/callback/oidc`] });
  h = await startHarness({
    now: () => Date.now() + ahead * 1000,
    env: {
      NEXTAUTH_URL: TEST_ORIGIN,
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: idp.clientId,
      OIDC_CLIENT_SECRET: idp.clientSecret,
      OIDC_NAME: 'Test IdP',
      TEAM_ADMIN_GROUPS: TEST_GROUPS.admin,
      TEAM_SUPPORT_GROUPS: `${TEST_GROUPS.support},helpdesk`,
      TEAM_VIEWER_GROUPS: TEST_GROUPS.viewer,
      TEAM_ROLE_TTL_SECONDS: '10',
      TEAM_API_KEY: 'minato',
      TEAM_API_SECRET: TEAM_SECRET,
      UPSTREAM_LIMIT_PER_MINUTE: '1000',
    },
  });
}, 60_000);

afterAll(async () => {
  vi.unstubAllEnvs();
  await h?.close();
  await idp?.close();
});

/** Calls next-auth with the dashboard's options, as a Node handler does; the answer as a Response. */
async function callAuth(path: string, jar: CookieJar, init: { method?: string; form?: Record<string, string> } = {}) {
  const url = new URL(`${TEST_ORIGIN}${path}`);
  // As a Node handler's request has them: decoded (Set-Cookie encodes them).
  const cookies = Object.fromEntries(jar.all().map(([k, v]) => [k, decodeURIComponent(v)]));
  let status = 200;
  let body = '';
  const headers = new Headers();
  const res = {
    getHeader: (name: string) => (name.toLowerCase() === 'set-cookie' ? headers.getSetCookie() : headers.get(name)),
    setHeader(name: string, value: string | string[]) {
      headers.delete(name);
      for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
      return res;
    },
    status(code: number) {
      status = code;
      return res;
    },
    json(value: unknown) {
      body = JSON.stringify(value);
    },
    send(value: unknown) {
      body = typeof value === 'string' ? value : JSON.stringify(value ?? '');
    },
    end() {},
  };
  const req = {
    method: init.method ?? 'GET',
    headers: { host: 'dashboard.test', cookie: jar.header() },
    cookies,
    query: { ...Object.fromEntries(url.searchParams), nextauth: url.pathname.split('/').slice(3) },
    body: init.form ?? {},
  };
  await NextAuth(authOptions(authDepsOf(h)))(req as never, res as never);
  const answer = new Response(body, { status, headers });
  jar.take(answer);
  answered.push(body, [...headers].join('\n'));
  return answer;
}

/**
 * The authorization code flow as a browser goes through it: next-auth's sign-in (state and PKCE
 * cookies set), the provider's authorize endpoint, its sign-in form, back to the dashboard's
 * callback. The final answer of the dashboard (a redirect: in, or to /signin?error=…).
 */
async function signIn(login: string, jar = new CookieJar()): Promise<{ jar: CookieJar; location: string }> {
  const csrf = (await (await callAuth('/api/auth/csrf', jar)).json()) as { csrfToken: string };
  const start = await callAuth('/api/auth/signin/oidc', jar, {
    method: 'POST',
    form: { csrfToken: csrf.csrfToken, callbackUrl: `${TEST_ORIGIN}/transactions`, json: 'true' },
  });
  const startBody = await start.text();
  let url = (JSON.parse(startBody) as { url: string }).url;
  if (!url) throw new Error(`sign-in did not start: ${start.status} ${startBody} ${[...start.headers].join(';')}`);
  expect(url.startsWith(`${idp.issuer}/auth?`), url).toBe(true);
  const authorize = new URL(url);
  expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorize.searchParams.get('state')).toBeTruthy();
  const idpJar = new CookieJar();
  for (let hop = 0; hop < 10; hop++) {
    if (url.startsWith(TEST_ORIGIN)) {
      let back = await callAuth(new URL(url).pathname + new URL(url).search, jar);
      // next-auth's own error route sends a refusal on to the sign-in page (its `pages.error`).
      while (back.headers.get('location')?.startsWith(`${TEST_ORIGIN}/api/auth/`)) {
        const next = new URL(back.headers.get('location')!);
        back = await callAuth(next.pathname + next.search, jar);
      }
      return { jar, location: back.headers.get('location') ?? '' };
    }
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: idpJar.header() } });
    idpJar.take(res);
    if (res.status === 200 && new URL(url).pathname.startsWith('/interaction/')) {
      const form = await fetch(url, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: idpJar.header(), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ login, password: passwordOf(login) }).toString(),
      });
      idpJar.take(form);
      url = new URL(form.headers.get('location')!, url).toString();
      continue;
    }
    expect([302, 303]).toContain(res.status);
    url = new URL(res.headers.get('location')!, url).toString();
  }
  throw new Error('the sign-in did not come back to the dashboard');
}

/** A with-account route, as the browser of `jar` asks it. */
function asked(path: string, jar: CookieJar, init: { method?: string; body?: unknown } = {}): NextRequest {
  const headers = new Headers({ cookie: jar.header(), 'sec-fetch-site': 'same-origin', origin: TEST_ORIGIN });
  if (init.body !== undefined) headers.set('content-type', 'application/json');
  return new NextRequest(`${TEST_ORIGIN}${path}`, {
    method: init.method ?? 'GET',
    headers,
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
}

async function who(jar: CookieJar): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await session.GET(asked('/api/team/session', jar), NO_CONTEXT);
  const body = (await res.json()) as Record<string, unknown>;
  answered.push(JSON.stringify(body));
  return { status: res.status, body };
}

const recent = () =>
  new URLSearchParams({
    'date-from': formatWallClock(new Date(Date.now() - 3600_000), 'UTC'),
    'date-to': formatWallClock(new Date(), 'UTC'),
    tz: 'UTC',
  }).toString();

async function auditActions(actor: string): Promise<string[]> {
  const rows = await h.store.db
    .selectFrom('team_audit')
    .select(['action', 'detail'])
    .where('actor', '=', actor)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.action);
}

describe('sign-in with the identity provider', () => {
  it('lets a person of a group in with that group\u2019s role, through code + PKCE + state', async () => {
    const { jar, location } = await signIn('sora');
    expect(location).toBe(`${TEST_ORIGIN}/transactions`);
    expect(jar.get('next-auth.session-token')).toBeTruthy();
    expect(await who(jar)).toMatchObject({
      status: 200,
      body: { person: { name: 'Sora Support', role: 'support', account: 'minato' } },
    });
    const search = await transactions.GET(asked(`/api/transactions?${recent()}`, jar), NO_CONTEXT);
    expect(search.status).toBe(200);
    expect(((await search.json()) as { _meta: { masked?: boolean } })._meta.masked).toBe(true);
    expect(await auditActions('sora')).toEqual(['role-seen', 'sign-in']);
  });

  it('refuses someone in none of the groups, saying why, and writes the refusal down', async () => {
    const { jar, location } = await signIn('nobu');
    expect(location).toMatch(/\/signin\?error=NoTeamRole/);
    expect(jar.get('next-auth.session-token')).toBeUndefined();
    expect(await auditActions('nobu')).toEqual(['sign-in-refused']);
  });

  it('applies a role changed at the provider at the next request after the role\u2019s time, and signs out someone in no group', async () => {
    const { jar } = await signIn('saki');
    expect((await who(jar)).body).toMatchObject({ person: { role: 'support' } });
    idp.setGroups('saki', [TEST_GROUPS.viewer]);
    // Within TEAM_ROLE_TTL_SECONDS the role holds as read.
    expect((await who(jar)).body).toMatchObject({ person: { role: 'support' } });
    ahead += 11;
    expect((await who(jar)).body).toMatchObject({ person: { role: 'viewer' } });
    const refused = await transactions.GET(asked(`/api/transactions?${recent()}`, jar), NO_CONTEXT);
    expect(refused.status).toBe(403);
    expect(await auditActions('saki')).toEqual(['role-seen', 'sign-in', 'role-seen']);

    idp.setGroups('saki', ['marketing']);
    ahead += 11;
    const out = await who(jar);
    expect(out.status).toBe(401);
    expect(out.body).toMatchObject({ type: '/problems/session-ended' });
    // Told the same on every later request, and the cookie opens nothing any more.
    expect((await who(jar)).body.detail).toMatch(/no longer puts you in a group/);
    expect(await h.vault.forPerson('saki')).toEqual([]);
  });

  it('signs out a person whose grant the provider revoked, at their next role reading', async () => {
    const { jar } = await signIn('vic');
    expect((await who(jar)).body).toMatchObject({ person: { role: 'viewer' } });
    await idp.revoke('vic');
    ahead += 11;
    expect((await who(jar)).body).toMatchObject({ type: '/problems/session-ended', status: 401 });
  });

  it('ends a suspended person\u2019s sessions at once and refuses their next sign-in', async () => {
    const admin = (await signIn('aiko')).jar;
    idp.setGroups('saki', [TEST_GROUPS.support]);
    const one = (await signIn('saki')).jar;
    const saki = (await signIn('saki')).jar;
    expect((await who(saki)).status).toBe(200);
    expect((await who(one)).status).toBe(200);
    const suspended = await person.PUT(
      asked('/api/team/people/saki', admin, { method: 'PUT', body: { suspended: true } }),
      { params: Promise.resolve({ id: 'saki' }) },
    );
    expect(suspended.status).toBe(200);
    expect(await suspended.json()).toMatchObject({ id: 'saki', suspendedBy: 'aiko', sessions: 0 });
    for (const jar of [saki, one]) {
      const next = await who(jar);
      expect(next.status).toBe(401);
      expect(next.body.detail).toMatch(/suspended your access/);
    }
    expect((await signIn('saki')).location).toMatch(/\/signin\?error=Suspended/);
    // Only an admin suspends; nobody suspends themselves.
    const self = await person.PUT(asked('/api/team/people/aiko', admin, { method: 'PUT', body: { suspended: true } }), {
      params: Promise.resolve({ id: 'aiko' }),
    });
    expect(self.status).toBe(409);
  });

  it('never answers the team\u2019s secret or the provider\u2019s tokens', () => {
    const all = answered.join('\n');
    expect(all.length).toBeGreaterThan(1000);
    expect(all).not.toContain(TEAM_SECRET);
    expect(all).not.toContain(idp.clientSecret);
  });
});
