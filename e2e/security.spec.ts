/**
 * The security headers and guards, as a browser and a client meet them:
 *  - every page runs under the Content-Security-Policy (a nonce per response, no eval) without a
 *    single violation, and the policy really blocks what it should;
 *  - the sign-in page shows only its own messages, whatever `?error=` says;
 *  - an oversized body is refused with 413 before it is read whole, and the server goes on serving;
 *  - a request from another site or origin spends no upstream call, and a search link opened from
 *    another site fills the form and waits for Search.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { request as playwrightRequest, type Page } from '@playwright/test';
import { expect, test } from './test';
import { APP_URL } from './env';
import { ACCOUNTS, pastWindow, resultRows, rowIds, searchUrl, signIn, upstreamCalls } from './helpers';

const ACCOUNT = ACCOUNTS.security;

/** Every CSP violation the page reports (event) or logs (console), and Permissions-Policy complaints. */
async function watchPolicyReports(page: Page): Promise<string[]> {
  const reports: string[] = [];
  await page.exposeBinding('__reportViolation', (_source, text: string) => reports.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __reportViolation: (t: string) => void }).__reportViolation(
        `${location.pathname}: ${e.violatedDirective} blocked ${e.blockedURI} ${e.sample}`,
      );
    });
  });
  page.on('console', (msg) => {
    if (/Content Security Policy|Permissions-Policy|Permissions policy/i.test(msg.text()))
      reports.push(`console ${msg.type()}: ${msg.text()}`);
  });
  return reports;
}

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(';').map((d) => {
      const [name, ...values] = d.trim().split(/\s+/);
      return [name as string, values];
    }),
  );
}

/**
 * Sends the headers and the first `sentBytes` of a body, and never the rest: the answer can only
 * come back if the server decided without reading the body whole.
 */
function postWithoutFinishing(
  path: string,
  headers: Record<string, string>,
  sentBytes: number,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${APP_URL}${path}`, { method: 'POST', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body });
        req.destroy();
      });
    });
    req.on('error', reject);
    req.write(Buffer.alloc(sentBytes, 'a'));
  });
}

test.describe('security', () => {
  test('every page runs under the CSP without a violation', async ({ page, baseURL }) => {
    const reports = await watchPolicyReports(page);

    await page.goto('/signin');
    await page.fill('#apiKey', ACCOUNT);
    await page.fill('#apiSecret', 'not-the-secret');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.locator('form').getByRole('alert')).toHaveText(
      'The Report API did not accept this API key and secret. Check both and try again.',
    );
    // Focus is where the person types next: the secret, emptied (the key is kept).
    await expect(page.locator('#apiSecret')).toBeFocused();
    await expect(page.locator('#apiSecret')).toHaveValue('');
    await expect(page.locator('#apiKey')).toHaveValue(ACCOUNT);
    // A missing field: focus goes to it, with its problem.
    await page.fill('#apiKey', '');
    await page.fill('#apiSecret', 'anything');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.locator('#apiKey')).toBeFocused();
    await expect(page.locator('#apiKey')).toHaveAttribute('aria-invalid', 'true');

    await signIn(page, ACCOUNT, baseURL!);
    await page.goto(searchUrl(pastWindow(6, 4, 2)));
    await expect(resultRows(page).first()).toBeVisible();
    const [id] = await rowIds(page);
    await resultRows(page).first().click();
    await expect(page.getByTestId('detail-drawer')).toBeVisible();

    await page.goto(`/transactions/${id}?tz=JST`);
    await expect(page.getByTestId('page-trx-id')).toHaveText(id!);
    await expect(page.getByRole('heading', { name: 'Delivery' })).toBeVisible();

    // An export, so the exports page has a card (with its progress bar) to show.
    const window = pastWindow(6, 1, 2);
    const created = await page
      .context()
      .request.post('/api/exports', { data: { 'date-from': window.from, 'date-to': window.to, tz: 'UTC' } });
    expect(created.status()).toBe(201);
    await page.goto('/exports');
    await expect(page.getByTestId('export-card').first()).toBeVisible();
    await expect(page.getByTestId('quota-meter')).toBeVisible();

    await page.goto('/no-such-page');
    await expect(page.getByRole('heading', { name: 'This page could not be found' })).toBeVisible();

    expect(reports).toEqual([]);
  });

  test('the CSP: a fresh nonce on every page and its scripts, no eval, and it blocks what it should', async ({
    page,
  }) => {
    const first = await page.request.get('/signin');
    const second = await page.request.get('/signin');
    const policies = [first, second].map((r) => r.headers()['content-security-policy'] ?? '');
    const nonces = policies.map((p) => /'nonce-([^']+)'/.exec(p)?.[1]);
    expect(nonces[0]).toBeTruthy();
    expect(nonces[1]).toBeTruthy();
    expect(nonces[0]).not.toBe(nonces[1]);
    // This suite runs the production build: React and Next need no eval there.
    expect(policies[0]).not.toContain('unsafe-eval');
    const csp = directives(policies[0]!);
    expect(csp.get('script-src')).toEqual(["'self'", `'nonce-${nonces[0]}'`, "'strict-dynamic'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'self'"]);
    expect(csp.get('form-action')).toEqual(["'self'"]);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    // Every script of the page carries the response's nonce.
    const scripts = (await first.text()).match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonces[0]}"`);
    // The headers kept from before, and the new ones. The e2e dashboards are plain http: no HSTS.
    const headers = first.headers();
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['referrer-policy']).toBe('same-origin');
    expect(headers['permissions-policy']).toContain('camera=()');
    expect(headers['permissions-policy']).toContain('geolocation=()');
    expect(headers['strict-transport-security']).toBeUndefined();

    // The watcher hears a real violation: injected markup (what an XSS would add) runs no handler and
    // adds no style sheet, while a style attribute (what React's style={{…}} renders) applies.
    const reports = await watchPolicyReports(page);
    await page.goto('/signin');
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    await page.evaluate(() => {
      document.body.insertAdjacentHTML(
        'beforeend',
        '<img src="/icon.svg" alt="" onload="window.__injected = true"><style>body { outline: 9px solid red }</style><p id="styled" style="color: rgb(1, 2, 3)">styled</p>',
      );
    });
    await expect.poll(() => reports.filter((r) => r.includes('script-src')).length).toBeGreaterThan(0);
    await expect.poll(() => reports.filter((r) => r.includes('style-src')).length).toBeGreaterThan(0);
    expect(await page.evaluate(() => (window as unknown as { __injected?: boolean }).__injected)).toBeUndefined();
    expect(await page.evaluate(() => getComputedStyle(document.body).outlineWidth)).not.toBe('9px');
    await expect(page.locator('#styled')).toHaveCSS('color', 'rgb(1, 2, 3)');
    expect(reports.filter((r) => r.includes('style-src-attr'))).toEqual([]);
  });

  test('the sign-in page shows only its own messages, whatever the link says', async ({ page }) => {
    const phishing = 'Your account is locked. Call +1 555 0100 and read out your API secret.';
    await page.goto(`/signin?error=${encodeURIComponent(phishing)}`);
    await expect(page.locator('form').getByRole('alert')).toHaveText('Sign-in did not complete. Try again.');
    expect(await page.locator('body').innerText()).not.toContain('locked');

    await page.goto(`/signin?error=${encodeURIComponent('TooManyAttempts:90 call +1 555 0100')}`);
    await expect(page.locator('form').getByRole('alert')).toHaveText('Sign-in did not complete. Try again.');

    // The codes the server sends are shown as their text.
    await page.goto('/signin?error=CredentialsRejected');
    await expect(page.locator('form').getByRole('alert')).toHaveText(
      'The Report API did not accept this API key and secret. Check both and try again.',
    );
    await page.goto('/signin?error=TooManyAttempts:90');
    await expect(page.locator('form').getByRole('alert')).toHaveText(
      'Too many sign-in attempts. Try again in 1 min 30 s.',
    );
  });

  test('a 1 MB body is refused with 413 before it is read, and the server goes on serving', async ({
    page,
    baseURL,
  }) => {
    const megabyte = 'a'.repeat(1 << 20);

    // Sign-in (no session needed there).
    const anonymous = await playwrightRequest.newContext({ baseURL: APP_URL });
    const { csrfToken } = (await (await anonymous.get('/api/auth/csrf')).json()) as { csrfToken: string };
    const bigSignIn = await anonymous.post('/api/auth/callback/credentials', {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      data: `csrfToken=${csrfToken}&apiKey=${ACCOUNT}&apiSecret=${megabyte}`,
      maxRedirects: 0,
    });
    expect(bigSignIn.status()).toBe(413);
    expect(bigSignIn.headers()['content-type']).toContain('application/problem+json');
    const signInProblem = (await bigSignIn.json()) as { detail: string; maxBodyBytes: number };
    expect(signInProblem.maxBodyBytes).toBe(8192);
    expect(signInProblem.detail).toContain('Send only the sign-in form');
    const normal = await anonymous.post('/api/auth/callback/credentials', {
      form: { csrfToken, apiKey: ACCOUNT, apiSecret: `${ACCOUNT}-secret`, json: 'true' },
      maxRedirects: 0,
    });
    expect(normal.status()).toBe(200);
    expect((await anonymous.get('/api/quota')).status()).toBe(200);

    // Exports.
    await signIn(page, ACCOUNT, baseURL!);
    const ctx = page.context().request;
    const bigExport = await ctx.post('/api/exports', {
      headers: { 'Content-Type': 'application/json' },
      data: `{"columns": "${megabyte}"}`,
    });
    expect(bigExport.status()).toBe(413);
    const exportProblem = (await bigExport.json()) as { detail: string; maxBodyBytes: number };
    expect(exportProblem.maxBodyBytes).toBe(16384);
    expect(exportProblem.detail).toContain('as JSON');
    const window = pastWindow(7, 1, 2);
    const estimate = await ctx.post('/api/exports', {
      data: { 'date-from': window.from, 'date-to': window.to, dryRun: true },
    });
    expect(estimate.status()).toBe(200);

    // Not read whole: a declared 1 MB, or a body without a length past the limit, is answered while
    // the client is still holding the rest back.
    const cookie = (await page.context().cookies(baseURL)).map((c) => `${c.name}=${c.value}`).join('; ');
    const declared = await postWithoutFinishing(
      '/api/exports',
      { cookie, 'Content-Type': 'application/json', 'Content-Length': String(1 << 20) },
      1024,
    );
    expect(declared.status).toBe(413);
    const streamed = await postWithoutFinishing(
      '/api/exports',
      { cookie, 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
      32 * 1024,
    );
    expect(streamed.status).toBe(413);
    const streamedSignIn = await postWithoutFinishing(
      '/api/auth/callback/credentials',
      { 'Content-Type': 'application/x-www-form-urlencoded', 'Transfer-Encoding': 'chunked' },
      16 * 1024,
    );
    expect(streamedSignIn.status).toBe(413);
    expect((await ctx.get('/api/exports')).status()).toBe(200);
  });

  test('a request from another site or origin spends no upstream call', async ({ page, baseURL }) => {
    await signIn(page, ACCOUNT, baseURL!);
    // A range nobody has searched: served, it would cost a call.
    const query = searchUrl(pastWindow(8, 3, 5)).replace('/transactions', '/api/transactions');
    const before = await upstreamCalls(ACCOUNT);
    // Another page on this machine (the browser lets loopback pages reach loopback servers): as
    // http://localhost:<port> a sibling origin of our site, as http://127.0.0.1:<port> another site.
    const attacker = http.createServer((_req, res) => {
      res.setHeader('Content-Type', 'text/html');
      res.end(`<!doctype html><title>elsewhere</title><a id="go" href="${APP_URL}${query}">free money</a>`);
    });
    await new Promise<void>((resolve) => attacker.listen(0, resolve));
    const port = (attacker.address() as AddressInfo).port;
    try {
      const answer = (path: string) => page.waitForResponse((r) => r.url() === `${APP_URL}${path}`);
      const sendFromPage = (path: string, method: string) =>
        page.evaluate(
          ([url, m]) =>
            fetch(url!, {
              method: m,
              mode: 'no-cors',
              credentials: 'include',
              ...(m === 'POST' ? { body: '{}' } : {}),
            }).then(() => undefined),
          [`${APP_URL}${path}`, method],
        );

      // The sibling origin: SameSite cookies go along, so only the check stands in the way.
      await page.goto(`http://localhost:${port}/`);
      const sibling = answer(query);
      await sendFromPage(query, 'GET');
      expect((await sibling).status()).toBe(403);

      // Another site: a link followed (a top-level GET carries the session cookie), and a fetch.
      await page.goto(`http://127.0.0.1:${port}/`);
      const [followed] = await Promise.all([answer(query), page.click('#go')]);
      expect(followed.status()).toBe(403);
      const problem = (await followed.json()) as { title: string; detail: string };
      expect(problem.title).toBe('Refused: the request did not come from the dashboard');
      expect(problem.detail).toContain('No upstream call was made');
      await page.goto(`http://127.0.0.1:${port}/`);
      const exportPost = answer('/api/exports');
      await sendFromPage('/api/exports', 'POST');
      expect((await exportPost).status()).toBe(403);
    } finally {
      attacker.close();
    }
    expect(await upstreamCalls(ACCOUNT)).toBe(before);

    // The dashboard's own page asks the same and is served.
    await page.goto(query.replace('/api/transactions', '/transactions'));
    await expect(resultRows(page).first()).toBeVisible();
    expect(await upstreamCalls(ACCOUNT)).toBe(before + 1);
  });

  test('a search link opened from another site fills the form and waits for Search', async ({ page, baseURL }) => {
    await signIn(page, ACCOUNT, baseURL!);
    const window = pastWindow(9, 2, 7);
    const link = searchUrl(window, { row: '0123456789abcdef0123456789abcdef' });
    const attacker = http.createServer((_req, res) => {
      res.setHeader('Content-Type', 'text/html');
      res.end(
        `<!doctype html><title>elsewhere</title><a id="go" href="${APP_URL}${link}">see your messages</a>` +
          `<a id="lookup" href="${APP_URL}/transactions/0123456789ABCDEF0123456789ABCD01">see this one</a>`,
      );
    });
    await new Promise<void>((resolve) => attacker.listen(0, resolve));
    const port = (attacker.address() as AddressInfo).port;
    const before = await upstreamCalls(ACCOUNT);
    const spending: string[] = [];
    page.on('request', (req) => {
      if (new URL(req.url()).pathname.startsWith('/api/transactions')) spending.push(req.url());
    });
    try {
      await page.goto(`http://127.0.0.1:${port}/`);
      await page.click('#go');
      await expect(page).toHaveURL(new RegExp(`^${APP_URL}/transactions\\?`));
      await expect(page.getByTestId('held-link')).toContainText('The link came from another site');
      // The picker shows whole minutes (the seconds of :00 are left off).
      await expect(page.locator('input[name="date-from"]')).toHaveValue(
        new RegExp(`^${window.from.replace(' ', 'T').slice(0, 16)}`),
      );
      await expect(page.getByTestId('search-cost')).toContainText(/Uses|From cache/);
      // Nothing spent: no search and no drawer lookup, whatever the link carried.
      await expect(page.getByTestId('detail-drawer')).toHaveCount(0);
      expect(spending).toEqual([]);
      expect(await upstreamCalls(ACCOUNT)).toBe(before);

      await page.getByTestId('search-button').click();
      await expect(resultRows(page).first()).toBeVisible();
      await expect(page.getByTestId('held-link')).toHaveCount(0);
      expect(await upstreamCalls(ACCOUNT)).toBeGreaterThan(before);

      // A transaction's page linked from there waits too (made-up ids would each spend a call).
      const beforeLookup = await upstreamCalls(ACCOUNT);
      spending.length = 0;
      await page.goto(`http://127.0.0.1:${port}/`);
      await page.click('#lookup');
      await expect(page.getByTestId('held-lookup')).toContainText('The link came from another site');
      // Read as the records write it: lower case.
      await expect(page.getByTestId('page-trx-id')).toHaveText('0123456789abcdef0123456789abcd01');
      expect(spending).toEqual([]);
      expect(await upstreamCalls(ACCOUNT)).toBe(beforeLookup);
      await page.getByTestId('look-up').click();
      await expect(page.getByText('No such transaction')).toBeVisible();
      expect(await upstreamCalls(ACCOUNT)).toBe(beforeLookup + 1);
    } finally {
      attacker.close();
    }

    // The same link opened from the dashboard itself (or typed in) searches at once.
    const own = pastWindow(9, 2, 12);
    await page.goto(searchUrl(own));
    await expect(resultRows(page).first()).toBeVisible();
  });

  test('the sign-in form keeps what was typed (or autofilled) before its script ran', async ({ page }) => {
    // The page's scripts held back: the fields are filled while the form is still the server's HTML.
    let release!: () => void;
    const scriptsMayLoad = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/_next/static/chunks/**', async (route) => {
      await scriptsMayLoad;
      await route.continue();
    });
    // Not waiting for the document's load: its scripts are what is held back.
    await page.goto('/signin', { waitUntil: 'commit' });
    await page.locator('#apiKey').waitFor();
    await page.fill('#apiKey', ACCOUNT);
    await page.fill('#apiSecret', `${ACCOUNT}-secret`);
    release();
    await page.waitForLoadState('load');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/transactions/);
  });

  test("another site's link that passes through sign-in still waits for the person", async ({ page }) => {
    const window = pastWindow(9, 2, 8);
    const link = searchUrl(window, { row: '0123456789abcdef0123456789abcdef' });
    const attacker = http.createServer((_req, res) => {
      res.setHeader('Content-Type', 'text/html');
      res.end(
        `<!doctype html><title>elsewhere</title><a id="signin" href="${APP_URL}/signin?callbackUrl=${encodeURIComponent(link)}">sign in</a>` +
          `<a id="lookup" href="${APP_URL}/transactions/0123456789abcdef0123456789abcd02">see this one</a>`,
      );
    });
    await new Promise<void>((resolve) => attacker.listen(0, resolve));
    const port = (attacker.address() as AddressInfo).port;
    const spending: string[] = [];
    page.on('request', (req) => {
      if (new URL(req.url()).pathname.startsWith('/api/transactions')) spending.push(req.url());
    });
    const signInOnForm = async () => {
      await page.fill('#apiKey', ACCOUNT);
      await page.fill('#apiSecret', `${ACCOUNT}-secret`);
      await page.getByRole('button', { name: 'Sign in' }).click();
    };
    const before = await upstreamCalls(ACCOUNT);
    try {
      // Signed out, a link straight to the sign-in page with a search to go to afterwards.
      await page.goto(`http://127.0.0.1:${port}/`);
      await page.click('#signin');
      await signInOnForm();
      await expect(page).toHaveURL(new RegExp(`^${APP_URL}/transactions\\?`));
      await expect(page.getByTestId('held-link')).toContainText('The link came from another site');
      await expect(page.getByTestId('detail-drawer')).toHaveCount(0);
      expect(spending).toEqual([]);
      expect(await upstreamCalls(ACCOUNT)).toBe(before);

      // Signed out again, a transaction's page: the dashboard sends the person to sign in first.
      await page.context().clearCookies();
      await page.goto(`http://127.0.0.1:${port}/`);
      await page.click('#lookup');
      await expect(page).toHaveURL(new RegExp(`^${APP_URL}/signin\\?`));
      await signInOnForm();
      await expect(page.getByTestId('held-lookup')).toContainText('The link came from another site');
      expect(spending).toEqual([]);
      expect(await upstreamCalls(ACCOUNT)).toBe(before);
    } finally {
      attacker.close();
    }

    // Signed in from the dashboard's own sign-in page, its page searches at once.
    await page.context().clearCookies();
    await page.goto(`/signin?callbackUrl=${encodeURIComponent(searchUrl(pastWindow(9, 2, 13)))}`);
    await signInOnForm();
    await expect(resultRows(page).first()).toBeVisible();
  });
});
