/**
 * The dashboard's own HTTP API, driven as a script would drive it: next-auth's sign-in flow, the
 * session check in every handler, validation before anything is spent, links that keep the whole
 * query, account isolation, and sign-out that revokes the session on the server.
 */
import { request as playwrightRequest, type APIRequestContext } from '@playwright/test';
import { expect, test } from './test';
import { APP_URL } from './env';
import { upstreamCalls } from './helpers';

// Its own login, so that counting its upstream calls is not disturbed by specs running beside it.
const ACCOUNT = 'minato-audit';
const SECRET = 'minato-audit-secret';

function utc(msAgo: number): string {
  return new Date(Date.now() - msAgo).toISOString().slice(0, 19).replace('T', ' ');
}
const DAY = 86_400_000;

async function signedIn(apiKey = ACCOUNT, secret = SECRET, enterpriseId = ''): Promise<APIRequestContext> {
  const ctx = await playwrightRequest.newContext({ baseURL: APP_URL });
  const { csrfToken } = (await (await ctx.get('/api/auth/csrf')).json()) as { csrfToken: string };
  const res = await ctx.post('/api/auth/callback/credentials', {
    form: { csrfToken, apiKey, apiSecret: secret, enterpriseId, json: 'true' },
    maxRedirects: 0,
  });
  expect(res.status(), `sign-in as ${apiKey}: ${await res.text()}`).toBeLessThan(400);
  return ctx;
}

test.describe('the dashboard API', () => {
  test('answers 401 problem+json on every route without a session', async () => {
    const anonymous = await playwrightRequest.newContext({ baseURL: APP_URL });
    const range = `date-from=${encodeURIComponent(utc(2 * DAY))}&date-to=${encodeURIComponent(utc(DAY))}`;
    for (const path of [
      `/api/transactions?${range}`,
      '/api/transactions/0123456789abcdef0123456789abcdef',
      '/api/quota',
      `/api/plan?${range}`,
      '/api/exports',
    ]) {
      const res = await anonymous.get(path);
      expect(res.status(), path).toBe(401);
      expect(res.headers()['content-type'], path).toContain('application/problem+json');
      expect(((await res.json()) as { title: string }).title, path).toBe('Sign in first');
      expect(res.headers()['www-authenticate'], path).toMatch(/^Session realm=/);
    }
  });

  test('answers the health probe without a session, and says nothing of any account', async () => {
    const anonymous = await playwrightRequest.newContext({ baseURL: APP_URL });
    const res = await anonymous.get('/api/health');
    expect(res.status()).toBe(200);
    expect(res.headers()['cache-control']).toContain('no-store');
    expect(await res.json()).toEqual({ status: 'ok', store: 'ok' });
    expect((await anonymous.post('/api/health')).status()).toBe(405);
  });

  test('refuses a wrong secret with a clear message and no session', async () => {
    const ctx = await playwrightRequest.newContext({ baseURL: APP_URL });
    const { csrfToken } = (await (await ctx.get('/api/auth/csrf')).json()) as { csrfToken: string };
    const res = await ctx.post('/api/auth/callback/credentials', {
      form: { csrfToken, apiKey: ACCOUNT, apiSecret: 'wrong', json: 'true' },
      maxRedirects: 0,
    });
    // A code, not a sentence: the sign-in page shows its own text for it.
    const { url } = (await res.json()) as { url: string };
    expect(new URL(url).searchParams.get('error')).toBe('CredentialsRejected');
    expect(await (await ctx.get(url)).text()).toContain('did not accept this API key and secret');
    expect((await ctx.get('/api/quota')).status()).toBe(401);
  });

  test('keeps the secret and the upstream token out of everything the browser can read', async () => {
    const ctx = await signedIn();
    const session = (await (await ctx.get('/api/auth/session')).json()) as Record<string, unknown>;
    expect(Object.keys(session).sort()).toEqual(['apiKey', 'enterpriseId', 'expires', 'user']);
    expect(session.apiKey).toBe(ACCOUNT);
    const everything = [
      JSON.stringify(session),
      JSON.stringify(await ctx.storageState()),
      await (await ctx.get('/transactions')).text(),
      await (await ctx.get('/api/quota')).text(),
    ].join('\n');
    expect(everything).not.toContain(SECRET);
    // The simulator's tokens are JWTs: none may appear outside next-auth's own encrypted cookie.
    const cookieValues = (await ctx.storageState()).cookies.map((c) => c.value);
    const jwtLike = everything.match(/eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+/g) ?? [];
    expect(jwtLike.filter((t) => !cookieValues.some((v) => v.includes(t)))).toEqual([]);
  });

  test('names every bad parameter, and spends no upstream call on it', async () => {
    const ctx = await signedIn();
    const before = await upstreamCalls(ACCOUNT);
    const bad = new URLSearchParams({
      'date-from': '2026-02-30 00:00:00',
      'date-to': 'yesterday',
      page: '0',
      'page-size': '7',
      tz: 'PST',
      'sort-order': 'up',
      da: 'abc',
      status: 'DONE',
      network: '12',
    });
    const res = await ctx.get(`/api/transactions?${bad}`);
    expect(res.status()).toBe(400);
    const problem = (await res.json()) as { errors: Record<string, string>; detail: string };
    expect(Object.keys(problem.errors).sort()).toEqual([
      'da',
      'date-from',
      'date-to',
      'network',
      'page',
      'page-size',
      'sort-order',
      'status',
      'tz',
    ]);
    expect(problem.detail).toContain('No upstream call was made');

    const tooLong = await ctx.get(
      `/api/transactions?${new URLSearchParams({ 'date-from': utc(40 * DAY), 'date-to': utc(DAY) })}`,
    );
    expect(tooLong.status()).toBe(400);
    expect(((await tooLong.json()) as { errors: Record<string, string> }).errors['date-to']).toContain('31 days');
    const backwards = await ctx.get(
      `/api/transactions?${new URLSearchParams({ 'date-from': utc(DAY), 'date-to': utc(2 * DAY) })}`,
    );
    expect(((await backwards.json()) as { errors: Record<string, string> }).errors['date-to']).toContain(
      'later than the start (date-from)',
    );
    const badId = await ctx.get('/api/transactions/not-a-transaction');
    expect(badId.headers()['content-type']).toContain('problem+json');
    expect(badId.status()).toBe(400);
    // A CSV of the page with a column that does not exist: refused before the page is asked for.
    const csv = await ctx.get(
      `/api/transactions?${new URLSearchParams({ 'date-from': utc(3 * DAY), 'date-to': utc(2 * DAY), columns: 'trx_id,nope' })}`,
      { headers: { Accept: 'text/csv' } },
    );
    expect(csv.status()).toBe(400);
    expect(Object.keys(((await csv.json()) as { errors: Record<string, string> }).errors)).toEqual(['columns']);
    // A misspelt filter too.
    const misspelt = await ctx.get(
      `/api/transactions?${new URLSearchParams({ 'date-from': utc(3 * DAY), 'date-to': utc(2 * DAY), stauts: 'DELIVRD' })}`,
    );
    expect(((await misspelt.json()) as { errors: Record<string, string> }).errors.stauts).toBe(
      'Unknown parameter "stauts": did you mean "status"?',
    );
    // HEAD would spend a call for an answer nobody reads.
    const head = await ctx.head(
      `/api/transactions?${new URLSearchParams({ 'date-from': utc(3 * DAY), 'date-to': utc(2 * DAY) })}`,
    );
    expect([head.status(), head.headers().allow]).toEqual([405, 'GET, OPTIONS']);
    expect((await ctx.head('/api/transactions/0123456789abcdef0123456789abcdef')).status()).toBe(405);
    // A method an endpoint does not take: 405 saying which it does, not Next.js's empty answer.
    const post = await ctx.post(
      `/api/transactions?${new URLSearchParams({ 'date-from': utc(3 * DAY), 'date-to': utc(2 * DAY) })}`,
      { data: {} },
    );
    expect([post.status(), post.headers().allow]).toEqual([405, 'GET, OPTIONS']);
    expect(await post.json()).toMatchObject({
      type: '/problems/method-not-allowed',
      title: 'POST is not answered here',
    });
    const patch = await ctx.fetch('/api/history', { method: 'PATCH', data: { enabled: true } });
    expect([patch.status(), patch.headers().allow]).toEqual([405, 'DELETE, GET, HEAD, OPTIONS, PUT']);
    // OPTIONS says the same as the 405s (Next.js's own named every handler a route exports, refusals too).
    const options = await ctx.fetch('/api/transactions', { method: 'OPTIONS' });
    expect([options.status(), options.headers().allow]).toEqual([204, 'GET, OPTIONS']);
    // The detail route takes `tz` only, once.
    const detailParams = await ctx.get('/api/transactions/0123456789abcdef0123456789abcdef?tz=JST&tz=UTC&foo=1');
    expect(Object.keys(((await detailParams.json()) as { errors: Record<string, string> }).errors).sort()).toEqual([
      'foo',
      'tz',
    ]);
    // A body that is not said to be JSON (what another site's form can send) is refused unread.
    const plain = await ctx.post('/api/exports', {
      headers: { 'Content-Type': 'text/plain' },
      data: JSON.stringify({ ...{ 'date-from': utc(3 * DAY), 'date-to': utc(2 * DAY) }, dryRun: true }),
    });
    expect(plain.status()).toBe(415);

    expect(await upstreamCalls(ACCOUNT)).toBe(before);
  });

  test('keeps a session signed in for one enterprise to it, in searches and exports', async () => {
    const ctx = await signedIn(ACCOUNT, SECRET, 'ent-minato');
    const before = await upstreamCalls(ACCOUNT);
    const range = { 'date-from': utc(3 * DAY), 'date-to': utc(2 * DAY) };
    const search = await ctx.get(
      `/api/transactions?${new URLSearchParams({ ...range, 'enterprise-id': 'ent-sakura' })}`,
    );
    expect(search.status()).toBe(400);
    expect(((await search.json()) as { errors: Record<string, string> }).errors['enterprise-id']).toContain(
      'signed in for enterprise "ent-minato"',
    );
    const exported = await ctx.post('/api/exports', { data: { ...range, 'enterprise-id': 'ent-sakura' } });
    expect(exported.status()).toBe(400);
    expect(await upstreamCalls(ACCOUNT)).toBe(before);
  });

  test('downloads a page CSV whose query holds Japanese, named in filename* (RFC 6266)', async () => {
    const ctx = await signedIn();
    const query = new URLSearchParams({
      'date-from': utc(3 * DAY),
      'date-to': utc(2 * DAY),
      'client-reference': '注文',
      oa: 'サクラ',
    });
    const res = await ctx.get(`/api/transactions?${query}`, { headers: { Accept: 'text/csv' } });
    expect(res.status(), await res.text()).toBe(200);
    const disposition = res.headers()['content-disposition'] ?? '';
    const name = decodeURIComponent(/filename\*=UTF-8''([^;]+)/.exec(disposition)?.[1] ?? '');
    expect(name).toMatch(/_UTC_oa-サクラ_client-reference-注文_p1\.csv$/);
    expect(disposition).toMatch(/^attachment; filename="sms_[\x20-\x7e]+\.csv"; filename\*=UTF-8''/);
    expect((await res.body()).subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  });

  test('says its problems in the language the client asks for, the machine-read parts in English', async () => {
    const anonymous = await playwrightRequest.newContext({ baseURL: APP_URL });
    const ja = await anonymous.get('/api/quota', { headers: { 'Accept-Language': 'ja-JP,ja;q=0.9,en;q=0.5' } });
    expect(ja.status()).toBe(401);
    expect(await ja.json()).toMatchObject({ type: '/problems/unauthenticated', title: 'ログインしてください' });
    const en = await anonymous.get('/api/quota', { headers: { 'Accept-Language': 'en-US' } });
    expect(await en.json()).toMatchObject({ type: '/problems/unauthenticated', title: 'Sign in first' });
    // The person's choice in the header (its cookie) goes before what the browser asks for.
    const chosen = await anonymous.get('/api/quota', {
      headers: { 'Accept-Language': 'ja', Cookie: 'sms-locale=en' },
    });
    expect(((await chosen.json()) as { title: string }).title).toBe('Sign in first');
    const ctx = await signedIn();
    const bad = await ctx.get(`/api/transactions?${new URLSearchParams({ 'date-from': 'soon' })}`, {
      headers: { 'Accept-Language': 'ja' },
    });
    const problem = (await bad.json()) as { title: string; errors: Record<string, string> };
    expect(problem.title).toBe('リクエストのパラメーターに誤りがあります');
    expect(Object.keys(problem.errors)).toContain('date-from');
  });

  test('follows links that keep filters, date-to, sort and zone', async () => {
    const ctx = await signedIn();
    const query = new URLSearchParams({
      'date-from': utc(6 * DAY),
      'date-to': utc(4 * DAY),
      status: 'DELIVRD',
      'sort-order': 'asc',
      tz: 'JST',
      'page-size': '10',
    });
    // The range was given in UTC wall clocks but read as JST: fine, it is just a range.
    const firstRes = await ctx.get(`/api/transactions?${query}`);
    // JSON or CSV by Accept, from one URL: said to caches, with a validator for conditional requests.
    expect(firstRes.headers().vary).toMatch(/\bAccept\b/);
    const etag = firstRes.headers().etag!;
    expect((await ctx.get(`/api/transactions?${query}`, { headers: { 'If-None-Match': etag } })).status()).toBe(304);
    const first = (await firstRes.json()) as {
      _links: Record<string, { href: string }>;
      _embedded: { cdrs: { delivery_status: string; date_received: string }[] };
    };
    const next = (await (await ctx.get(first._links.next?.href as string)).json()) as typeof first;
    const nextParams = new URLSearchParams(first._links.next?.href.split('?')[1]);
    for (const [k, v] of query) if (k !== 'page') expect(nextParams.get(k), k).toBe(v);
    expect(nextParams.get('page')).toBe('2');
    expect(next._embedded.cdrs.every((c) => c.delivery_status === 'DELIVRD')).toBe(true);
    expect(next._embedded.cdrs[0]?.date_received).toMatch(/\+0900$/);
    const times = [...first._embedded.cdrs, ...next._embedded.cdrs].map((c) => c.date_received);
    expect([...times].sort()).toEqual(times);
  });

  test("never hands one account another account's transaction", async () => {
    const minato = await signedIn();
    const page = (await (
      await minato.get(
        `/api/transactions?${new URLSearchParams({ 'date-from': utc(3 * DAY), 'date-to': utc(2 * DAY), 'page-size': '10' })}`,
      )
    ).json()) as {
      _embedded: { cdrs: { trx_id: string }[] };
    };
    const theirs = page._embedded.cdrs[0]?.trx_id as string;
    expect((await minato.get(`/api/transactions/${theirs}`)).status()).toBe(200);
    const fuji = await signedIn('fuji', 'fuji-secret');
    const res = await fuji.get(`/api/transactions/${theirs}`);
    expect(res.status()).toBe(404);
    expect(await res.text()).not.toContain('ent-minato');
  });

  test('sign-out ends the session on the server: a copied cookie stops working', async () => {
    const ctx = await signedIn();
    const copied = (await ctx.storageState()).cookies;
    const { csrfToken } = (await (await ctx.get('/api/auth/csrf')).json()) as { csrfToken: string };
    await ctx.post('/api/auth/signout', { form: { csrfToken, json: 'true' } });
    const thief = await playwrightRequest.newContext({
      baseURL: APP_URL,
      storageState: { cookies: copied, origins: [] },
    });
    const res = await thief.get('/api/quota');
    expect(res.status()).toBe(401);
  });
});
