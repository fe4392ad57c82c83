import { request as playwrightRequest, type Browser } from '@playwright/test';
import { expect, test } from './test';
import { APP_URL, STRICT_URL } from './env';
import { ACCOUNTS, screenshot, signIn } from './helpers';

const ACCOUNT = ACCOUNTS.session;

test('sign in, come back to the page asked for, sign out', async ({ page }) => {
  await page.goto('/transactions?tz=JST');
  await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
  await page.fill('#apiKey', ACCOUNT);
  await page.fill('#apiSecret', `${ACCOUNT}-secret`);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/transactions\?tz=JST/);
  await expect(page.getByRole('banner')).toContainText(ACCOUNT);
  await expect(page.getByTestId('quota-meter')).toBeVisible();
  await expect(page.locator('[data-zone="JST"]')).toHaveAttribute('aria-checked', 'true');
  await screenshot(page, '00-signed-in');

  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(/\/signin/);
  await page.goto('/transactions');
  await expect(page).toHaveURL(/\/signin/);
});

/** A second browser holding a copy of `cookies`: what someone who copied the session cookie has. */
async function browserWithCookies(
  browser: Browser,
  cookies: Awaited<ReturnType<import('@playwright/test').BrowserContext['cookies']>>,
) {
  const context = await browser.newContext({ baseURL: APP_URL });
  await context.addCookies(cookies);
  return context;
}

test('a signed-out session is over everywhere its cookie went: a copied cookie reads as no session', async ({
  page,
  browser,
  baseURL,
}) => {
  await signIn(page, ACCOUNT, baseURL!);
  const copy = await browserWithCookies(browser, await page.context().cookies(baseURL));
  try {
    const session = (await (await copy.request.get('/api/auth/session')).json()) as { apiKey?: string };
    expect(session.apiKey).toBe(ACCOUNT);

    await page.goto('/transactions');
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await expect(page).toHaveURL(/\/signin/);

    // The copy still holds the cookie next-auth signed, but the server ended its session.
    const after = await copy.request.get('/api/auth/session');
    expect(after.status()).toBe(200);
    expect(await after.json()).toEqual({});
    expect((await copy.request.get('/api/quota')).status()).toBe(401);
    const copyPage = await copy.newPage();
    await copyPage.goto('/transactions');
    await expect(copyPage).toHaveURL(/\/signin/);
  } finally {
    await copy.close();
  }
});

test.describe('sign out everywhere', () => {
  // The strict dashboard: its sessions are its own, and no other spec signs this key in there.
  test.use({ baseURL: STRICT_URL });

  test('ends every session of the key: other browsers and scripts too', async ({ page, browser, baseURL }) => {
    const ACCOUNT = ACCOUNTS.signOutEverywhere;
    await signIn(page, ACCOUNT, baseURL!);
    const other = await browser.newContext({ baseURL });
    const otherPage = await other.newPage();
    await signIn(otherPage, ACCOUNT, baseURL!);
    const script = await playwrightRequest.newContext({ baseURL });
    try {
      const { csrfToken } = (await (await script.get('/api/auth/csrf')).json()) as { csrfToken: string };
      await script.post('/api/auth/callback/credentials', {
        form: { csrfToken, apiKey: ACCOUNT, apiSecret: `${ACCOUNT}-secret`, json: 'true' },
      });
      expect((await script.get('/api/quota')).status()).toBe(200);
      // Another key's session is not this key's to end.
      const bystander = await browser.newContext({ baseURL });
      const bystanderPage = await bystander.newPage();
      await signIn(bystanderPage, ACCOUNTS.lookup, baseURL!);

      // From another site, the API refuses to end anything.
      const crossSite = await page
        .context()
        .request.post('/api/sign-out-everywhere', { headers: { 'Sec-Fetch-Site': 'cross-site' } });
      expect(crossSite.status()).toBe(403);
      expect((await script.get('/api/quota')).status()).toBe(200);

      await page.goto('/transactions');
      await page.getByRole('button', { name: 'Sign out everywhere' }).click();
      await expect(page).toHaveURL(/\/signin\?error=SignedOutEverywhere/);
      await expect(page.locator('form').getByRole('alert')).toHaveText(
        'You signed out everywhere: every session of this API key has ended, and no secret of it is kept here any more (a local history that kept copying while you were signed out waits for your next sign-in).',
      );

      // The other browser and the script are told why, not only "sign in first".
      await otherPage.goto('/transactions');
      await expect(otherPage).toHaveURL(/\/signin\?error=SignedOutEverywhere/);
      await expect(otherPage.locator('form').getByRole('alert')).toHaveText(
        'You signed out everywhere: every session of this API key has ended, and no secret of it is kept here any more (a local history that kept copying while you were signed out waits for your next sign-in).',
      );
      expect(await (await other.request.get('/api/auth/session')).json()).toEqual({});
      const refused = await script.get('/api/quota');
      expect(refused.status()).toBe(401);
      expect(((await refused.json()) as { detail: string }).detail).toContain(
        'Every session of this API key was signed out',
      );
      expect((await bystander.request.get('/api/quota')).status()).toBe(200);
      await bystander.close();

      // A script can do the same: sign in, then POST /api/sign-out-everywhere.
      const again = (await (await script.get('/api/auth/csrf')).json()) as { csrfToken: string };
      await script.post('/api/auth/callback/credentials', {
        form: { csrfToken: again.csrfToken, apiKey: ACCOUNT, apiSecret: `${ACCOUNT}-secret`, json: 'true' },
      });
      await signIn(otherPage, ACCOUNT, baseURL!);
      // Copying while signed out keeps the secret sealed in the store (turned on, the copy itself left off: no call).
      const keep = await script.put('/api/history', { data: { keepSyncingSignedOut: true } });
      expect(((await keep.json()) as { keepSyncingSignedOut: boolean }).keepSyncingSignedOut).toBe(true);
      const ended = await script.post('/api/sign-out-everywhere');
      expect(ended.status()).toBe(200);
      // Signing out everywhere deletes that secret too: nothing can call the upstream as this key any more.
      expect(await ended.json()).toEqual({ ended: 2, keptSecretsDeleted: 1 });
      expect((await script.get('/api/quota')).status()).toBe(401);
      expect((await other.request.get('/api/quota')).status()).toBe(401);
    } finally {
      await script.dispose();
      await other.close();
    }
  });
});
