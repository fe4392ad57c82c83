/**
 * Team mode end to end, in real Chromium, on a dashboard of this spec's own (its own simulator, so
 * the simulator's records are the oracle and no other spec's counts move) signing in through the
 * suite's identity provider (tests/support/oidc-provider.ts, a Playwright web server) with people in
 * each group:
 *  - each role signs in with "Sign in with Test IdP" and sees what it may: an admin the full numbers
 *    and the admin pages, a support person numbers masked and message text hidden (the note says
 *    so), a viewer Insights only (Transactions says why not); someone in no group is refused,
 *    saying why;
 *  - the reveal dialog: a reason of at least 10 characters, the record whole, and 429 past
 *    REVEAL_LIMIT_PER_HOUR;
 *  - the audit log page: filters (action, a number typed as a person types it) and its CSV;
 *  - a suspended person's next click meets the sign-in page saying an admin suspended them;
 *  - no byte a browser got (pages, scripts, API answers) and no line of the server's log holds the
 *    team's secret, and nothing a support person got holds a full number or a message's text.
 * Screenshots of each role: test-results/screenshots/team-*.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { expect, test } from './test';
import { startSimulator, type RunningSimulator } from '../simulator/server';
import { passwordOf, TEST_CLIENT, TEST_GROUPS } from '../tests/support/oidc-provider';
import { DATA_ROOT, OIDC_URL, TEAM_PORT } from './env';
import { OwnDashboard } from './own-dashboard';
import { resultRows, screenshot } from './helpers';

test.describe.configure({ mode: 'serial' });

const DATA_DIR = path.join(DATA_ROOT, 'team');
const TEAM_SECRET = 'fuji-secret';
const ENTERPRISE = 'ent-fuji';

let sim: RunningSimulator;
const dashboard = new OwnDashboard(TEAM_PORT, () => ({
  DATA_DIR,
  UPSTREAM_BASE_URL: sim.url,
  NEXTAUTH_SECRET: 'e2e-team-secret-0123456789abcdef0123456789abcdef',
  OIDC_ISSUER: OIDC_URL,
  OIDC_CLIENT_ID: TEST_CLIENT.id,
  OIDC_CLIENT_SECRET: TEST_CLIENT.secret,
  OIDC_NAME: 'Test IdP',
  TEAM_ADMIN_GROUPS: TEST_GROUPS.admin,
  TEAM_SUPPORT_GROUPS: TEST_GROUPS.support,
  TEAM_VIEWER_GROUPS: TEST_GROUPS.viewer,
  TEAM_API_KEY: 'fuji',
  TEAM_API_SECRET: TEAM_SECRET,
  REVEAL_LIMIT_PER_HOUR: '2',
  UPSTREAM_LIMIT_PER_MINUTE: '1000',
  UPSTREAM_LIMIT_PER_HOUR: '10000',
  UPSTREAM_LIMIT_PER_DAY: '100000',
  UPSTREAM_TOKEN_LIMIT_PER_MINUTE: '1000',
  // Every line, so the scan for the secret reads everything the server says.
  LOG_LEVEL: 'debug',
}));
const BASE = dashboard.url;

/** Every body the dashboard sent a browser in this spec, by whose browser it was. */
const received: { who: string; url: string; body: string }[] = [];

/** A browser context that keeps every body the dashboard sends it (pages, scripts, API answers). */
async function personContext(browser: Browser, who: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: BASE, locale: 'en-GB', timezoneId: 'Europe/Berlin' });
  context.on('response', (res) => {
    if (!res.url().startsWith(BASE)) return;
    void res.text().then(
      (body) => received.push({ who, url: res.url(), body }),
      () => undefined,
    );
  });
  return context;
}

/** "Sign in with Test IdP", the provider's form, and back. */
async function signInAs(page: Page, login: string): Promise<void> {
  await page.goto(`${BASE}/signin`);
  await page.getByTestId('oidc-sign-in').click();
  await expect(page).toHaveURL(new RegExp(`^${OIDC_URL}/interaction/`));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill(passwordOf(login));
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** A settled window of the team's account with records (UTC wall clocks). */
function window(): { from: string; to: string } {
  const day = new Date(Date.now() - 4 * 86_400_000).toISOString().slice(0, 10);
  return { from: `${day} 08:00:00`, to: `${day} 14:00:00` };
}
const searchPath = () =>
  `/transactions?${new URLSearchParams({ 'date-from': window().from, 'date-to': window().to, tz: 'UTC' })}`;

/** The simulator's full numbers and message texts of the team's enterprise: what a support person must never get. */
function personalData(): string[] {
  const all = sim.dataset.query({
    from: 0,
    to: Date.now() + 86_400_000,
    enterpriseId: ENTERPRISE,
    order: 'asc',
    offset: 0,
    limit: 10_000_000,
  });
  const found = new Set<string>();
  for (const i of all.indices) {
    const r = sim.dataset.recordAt(i, 'UTC') as unknown as Record<string, string>;
    found.add(r.to_address!);
    if (/^\d{7,}$/.test(r.from_address!)) found.add(r.from_address!);
    for (const body of [r.message_body, r.unencrypted_message_body]) if (body && body.length >= 8) found.add(body);
  }
  return [...found];
}

test.beforeAll(async () => {
  fs.rmSync(DATA_DIR, { recursive: true, force: true });
  sim = await startSimulator({ port: 0, limits: false, quiet: true, seed: 35, days: 8, perDay: 800 });
  await dashboard.start();
});

test.afterEach(async ({}, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus)
    await testInfo.attach('dashboard log', { body: dashboard.log, contentType: 'text/plain' });
});

test.afterAll(async () => {
  await dashboard.stop('SIGTERM');
  await sim?.close();
  fs.rmSync(DATA_DIR, { recursive: true, force: true });
});

test('an admin signs in with the identity provider and sees the full numbers and the admin pages', async ({
  browser,
}) => {
  const context = await personContext(browser, 'admin');
  const page = await context.newPage();
  await page.goto(`${BASE}/signin`);
  await expect(page.getByTestId('oidc-sign-in')).toHaveText('Sign in with Test IdP');
  await signInAs(page, 'aiko');
  await expect(page).toHaveURL(`${BASE}/transactions`);
  await expect(page.getByTestId('person-badge')).toContainText('Aiko Admin');
  await expect(page.getByTestId('person-role')).toContainText('admin');
  for (const name of ['People', 'Accounts', 'Audit log'])
    await expect(page.getByRole('link', { name, exact: true })).toBeVisible();

  await page.goto(`${BASE}${searchPath()}`);
  await expect(resultRows(page).first()).toBeVisible();
  await expect(page.getByTestId('masked-note')).toHaveCount(0);
  const numbers = await page.locator('td[data-kind="phone"]').allInnerTexts();
  expect(numbers.length).toBeGreaterThan(3);
  for (const n of numbers) expect(n.replace(/\s/g, '')).toMatch(/^\d{12}$/);
  await screenshot(page, 'team-admin');
  await context.close();
});

test('a support person sees numbers masked and text hidden, and reveals a record with a reason, within the limit', async ({
  browser,
}) => {
  const context = await personContext(browser, 'support');
  const page = await context.newPage();
  await signInAs(page, 'sora');
  await expect(page.getByTestId('person-role')).toContainText('support');
  await expect(page.getByRole('link', { name: 'People', exact: true })).toHaveCount(0);
  await page.goto(`${BASE}${searchPath()}`);
  await expect(resultRows(page).first()).toBeVisible();
  await expect(page.getByTestId('masked-note')).toContainText('masked');
  const numbers = await page.locator('td[data-kind="phone"]').allInnerTexts();
  for (const n of numbers) expect(n.replace(/\s/g, '')).toMatch(/^\d{2}\*{6}\d{4}$/);
  await screenshot(page, 'team-support');

  // The drawer: masked too, with Reveal. A reason too short is refused before anything is asked.
  await resultRows(page).first().click();
  const drawer = page.getByTestId('detail-drawer');
  await expect(drawer.locator('[data-field="to_address"]')).toContainText('******');
  await drawer.getByTestId('reveal-button').click();
  const dialog = page.getByTestId('reveal-dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByTestId('reveal-reason').fill('ticket');
  await dialog.getByTestId('reveal-submit').click();
  await expect(dialog).toContainText('at least 10 characters');
  await dialog.getByTestId('reveal-reason').fill('Customer called about ticket 4711');
  await dialog.getByTestId('reveal-submit').click();
  await expect(page.getByTestId('revealed-note')).toBeVisible();
  await expect(drawer.locator('[data-field="to_address"]')).toContainText(/\d{12}/);
  await screenshot(page, 'team-reveal');

  // Two a person an hour here (REVEAL_LIMIT_PER_HOUR=2): the third is refused, saying when.
  for (const [row, expectRefusal] of [
    [1, false],
    [2, true],
  ] as const) {
    await page.keyboard.press('Escape');
    await resultRows(page).nth(row).click();
    await drawer.getByTestId('reveal-button').click();
    await dialog.getByTestId('reveal-reason').fill(`Follow-up on ticket 4711, row ${row}`);
    await dialog.getByTestId('reveal-submit').click();
    if (expectRefusal) {
      await expect(dialog.getByTestId('reveal-error')).toContainText('Too many reveals this hour');
      await page.keyboard.press('Escape');
    } else await expect(page.getByTestId('revealed-note')).toBeVisible();
  }

  // Free text over messages is not for this role: the API says which role it needs.
  const refused = await context.request.get(
    `${BASE}/api/transactions?${new URLSearchParams({ 'date-from': window().from, 'date-to': window().to, q: 'ご予約' })}`,
  );
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toMatchObject({ type: '/problems/role-needed', neededRole: 'admin' });
  await context.close();
});

test('a viewer gets Insights only; someone in no group is refused, saying why', async ({ browser }) => {
  const context = await personContext(browser, 'viewer');
  const page = await context.newPage();
  await signInAs(page, 'vic');
  await expect(page.getByTestId('role-needed')).toContainText('needs the support role');
  await expect(page.getByRole('link', { name: 'Transactions', exact: true })).toHaveCount(0);
  await page.goto(`${BASE}/insights`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await screenshot(page, 'team-viewer');
  const record = await context.request.get(`${BASE}/api/transactions?${new URLSearchParams(window())}`);
  expect(record.status()).toBe(403);
  expect(await record.json()).toMatchObject({ neededRole: 'support', yourRole: 'viewer' });
  await context.close();

  const nobody = await personContext(browser, 'nobody');
  const refusedPage = await nobody.newPage();
  await signInAs(refusedPage, 'nobu');
  await expect(refusedPage).toHaveURL(/\/signin\?error=NoTeamRole/);
  await expect(refusedPage.locator('form').getByRole('alert')).toContainText('in none of the groups');
  await screenshot(refusedPage, 'team-refused');
  await nobody.close();
});

test('the audit log: reveals by a number typed as a person types it, filters, and its CSV', async ({ browser }) => {
  const context = await personContext(browser, 'admin');
  const page = await context.newPage();
  await signInAs(page, 'aiko');
  await page.getByRole('link', { name: 'Audit log', exact: true }).click();
  await expect(page.getByTestId('audit-table')).toBeVisible();
  await expect(page.getByTestId('audit-table')).toContainText('Revealed a record');
  await expect(page.getByTestId('audit-table')).toContainText('Customer called about ticket 4711');

  await page.getByLabel('Action', { exact: true }).selectOption('reveal');
  await page.getByTestId('audit-apply').click();
  await expect(page).toHaveURL(/action=reveal/);
  await expect(page.locator('[data-testid="audit-table"] tbody tr')).toHaveCount(2);
  await screenshot(page, 'team-audit');

  // The number of the first record revealed, written as a person writes it.
  const revealed = received.find((r) => r.who === 'support' && r.url.includes('/reveal'));
  const number = (JSON.parse(revealed!.body) as { to_address: string }).to_address;
  await page.getByLabel('Phone number').fill(`+${number.slice(0, 2)} ${number.slice(2, 4)}-${number.slice(4)}`);
  await page.getByTestId('audit-apply').click();
  await expect(page.locator('[data-testid="audit-table"] tbody tr')).toHaveCount(1);

  const download = page.waitForEvent('download');
  await page.getByTestId('audit-csv').click();
  const file = fs.readFileSync(await (await download).path(), 'utf8');
  expect(file.split('\r\n')[0]).toContain('at,actor,actorName,role,action');
  expect(file).toContain('reveal');
  expect(file).not.toContain(number);
  await context.close();
});

test("a suspended person's next click meets the sign-in page, saying why", async ({ browser }) => {
  const supportContext = await personContext(browser, 'support');
  const support = await supportContext.newPage();
  await signInAs(support, 'saki');
  await support.goto(`${BASE}${searchPath()}`);
  await expect(resultRows(support).first()).toBeVisible();

  const adminContext = await personContext(browser, 'admin');
  const admin = await adminContext.newPage();
  await signInAs(admin, 'aiko');
  await admin.getByRole('link', { name: 'People', exact: true }).click();
  const row = admin.locator('tr[data-person="saki"]');
  await expect(row).toBeVisible();
  admin.once('dialog', (d) => void d.accept());
  await row.getByTestId('suspend-person').click();
  await expect(row.getByTestId('person-status')).toContainText('Suspended');
  await screenshot(admin, 'team-people');

  await support.getByRole('link', { name: 'Insights', exact: true }).click();
  await expect(support).toHaveURL(/\/signin/);
  await expect(support.locator('form').getByRole('alert')).toContainText('suspended your access');
  await supportContext.close();
  await adminContext.close();
});

test('no browser byte or log line holds the team secret; no support answer holds a number or a text', async () => {
  expect(received.length).toBeGreaterThan(50);
  for (const r of received) expect(r.body.includes(TEAM_SECRET), `${r.who} ${r.url}`).toBe(false);
  expect(dashboard.log.length).toBeGreaterThan(0);
  expect(dashboard.log).not.toContain(TEAM_SECRET);
  expect(dashboard.log).not.toContain(TEST_CLIENT.secret);
  const secrets = personalData();
  for (const r of received.filter((x) => x.who === 'support' && !x.url.includes('/reveal'))) {
    const found = secrets.filter((s) => r.body.includes(s));
    expect(found, `support got ${r.url}`).toEqual([]);
  }
});
