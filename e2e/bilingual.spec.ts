/**
 * The main journeys in both languages, with Chromium's own locale set as a person's browser would
 * be (ja-JP, en-US): search and its drawer, a transaction's page, exports, History, Insights (a
 * chart and its table view), a page that does not exist and the sign-in page. Each page is
 * screenshotted (test-results/screenshots/bilingual-*), and none may show interface words of the
 * other language (e2e/words-left.ts: for a Japanese reader no English word outside data; for an
 * English one no Japanese). The language switch keeps the view: the same URL, the same state of the
 * page, drawn again in the other language.
 *
 * On a dashboard and simulator of this spec's own (e2e/own-dashboard.ts), with a local history of
 * a few settled days, so Insights has charts and nothing here moves a count another spec checks.
 * e2e/language.spec.ts covers how the language is chosen (cookie, Accept-Language, the switch on
 * the sign-in page); this spec covers that every page follows it.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import type { HistoryState } from '../lib/history/api';
import type { Locale } from '../lib/i18n/locales';
import { startSimulator, type RunningSimulator } from '../simulator/server';
import { DATA_ROOT, LANGUAGES_PORT } from './env';
import { resultRows, rowIds, screenshot, signIn } from './helpers';
import { OwnDashboard } from './own-dashboard';
import { expect, test } from './test';
import { wordsLeft, type Leftover } from './words-left';

const DATA_DIR = path.join(DATA_ROOT, 'bilingual');
const ACCOUNT = 'demo';
const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

let sim: RunningSimulator;
const dashboard = new OwnDashboard(LANGUAGES_PORT, () => ({
  DATA_DIR,
  UPSTREAM_BASE_URL: sim.url,
  NEXTAUTH_SECRET: 'e2e-bilingual-secret-0123456789abcdef01234567',
  UPSTREAM_LIMIT_PER_MINUTE: '1000',
  UPSTREAM_LIMIT_PER_HOUR: '10000',
  UPSTREAM_LIMIT_PER_DAY: '100000',
  UPSTREAM_TOKEN_LIMIT_PER_MINUTE: '1000',
}));
const BASE = dashboard.url;

/** Six days back to today: the three oldest are settled (older than 72 h) and synced for Insights. */
const SINCE = dayOf(Date.now() - 6 * DAY_MS);
const RANGE = { 'date-from': `${SINCE} 00:00:00`, 'date-to': `${dayOf(Date.now() - 4 * DAY_MS)} 23:59:59`, tz: 'JST' };
const query = (params: Record<string, string>) => new URLSearchParams(params).toString();

async function syncHistory(api: APIRequestContext): Promise<void> {
  const put = await api.put(`${BASE}/api/history`, { data: { enabled: true, since: SINCE } });
  expect(put.status(), await put.text()).toBe(200);
  await expect
    .poll(async () => ((await (await api.get(`${BASE}/api/history`)).json()) as HistoryState).state, {
      timeout: 90_000,
      intervals: [500],
    })
    .toBe('complete');
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(150_000);
  fs.rmSync(DATA_DIR, { recursive: true, force: true });
  sim = await startSimulator({ port: 0, limits: false, quiet: true, seed: 39, days: 7, perDay: 300 });
  await dashboard.start();
  const page = await browser.newPage();
  await signIn(page, ACCOUNT, BASE);
  await syncHistory(page.context().request);
  await page.close();
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

/** A page in the reader's language: `<html lang>`, a screenshot, and the words left of the other language. */
async function shown(page: Page, lang: Locale, name: string): Promise<Leftover[]> {
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
  await screenshot(page, `bilingual-${lang}-${name}`);
  return (await wordsLeft(page, lang)).map((l) => ({ ...l, at: `${name}: ${l.at}` }));
}

/** Every main page of the dashboard, as a reader of `lang` goes through them. */
async function journeys(page: Page, browser: Browser, lang: Locale, locale: string): Promise<Leftover[]> {
  const left: Leftover[] = [];
  await signIn(page, ACCOUNT, BASE);
  const api = page.context().request;

  // Search over the synced days, then a record's drawer.
  await page.goto(`${BASE}/transactions?${query(RANGE)}`);
  await expect(resultRows(page).first()).toBeVisible();
  left.push(...(await shown(page, lang, 'search')));
  const [first] = await rowIds(page);
  await resultRows(page).first().click();
  await expect(page.getByTestId('detail-drawer')).toBeVisible();
  left.push(...(await shown(page, lang, 'drawer')));

  // The transaction's own page.
  await page.goto(`${BASE}/transactions/${encodeURIComponent(first!)}`);
  await expect(page.locator('[data-field]').first()).toBeVisible();
  left.push(...(await shown(page, lang, 'transaction')));

  // An export of the range, done.
  const created = await api.post(`${BASE}/api/exports`, { data: RANGE });
  expect(created.status(), await created.text()).toBeLessThan(300);
  await page.goto(`${BASE}/exports`);
  await expect(page.getByTestId('export-download').first()).toBeVisible({ timeout: 30_000 });
  left.push(...(await shown(page, lang, 'exports')));

  // The local history, complete.
  await page.goto(`${BASE}/history`);
  await expect(page.getByTestId('history-summary')).toHaveAttribute('data-state', 'complete');
  left.push(...(await shown(page, lang, 'history')));

  // Insights over the synced days, a chart and then its table view.
  await page.goto(`${BASE}/insights?${query(RANGE)}`);
  await expect(page.getByTestId('chart-volume')).toBeVisible();
  await expect(page.getByTestId('coverage-note')).toBeVisible();
  left.push(...(await shown(page, lang, 'insights')));
  await page.getByTestId('chart-dlr-toggle').click();
  await expect(page.getByTestId('chart-dlr').locator('table')).toBeVisible();
  left.push(...(await shown(page, lang, 'insights-table')));

  // Reconcile: the form, then a pasted trx_id over the synced days, answered at once from them.
  await page.goto(`${BASE}/reconcile`);
  await expect(page.getByTestId('reconcile-plan')).toBeEnabled();
  left.push(...(await shown(page, lang, 'reconcile')));
  await page.locator('input[name="source"][value="paste"]').check();
  await page.getByTestId('reconcile-paste').fill(first!);
  await page.getByTestId('reconcile-from').fill(`${SINCE}T00:00:00`);
  await page.getByTestId('reconcile-to').fill(`${dayOf(Date.now() - 4 * DAY_MS)}T23:59:59`);
  await page.getByTestId('reconcile-plan').click();
  await expect(page.getByTestId('reconcile-row').first()).toBeVisible();
  await expect(page.getByTestId('reconcile-summary')).toBeVisible();
  left.push(...(await shown(page, lang, 'reconcile-answered')));

  // A page that does not exist.
  await page.goto(`${BASE}/no-such-page`);
  left.push(...(await shown(page, lang, 'not-found')));

  // Signed out: the sign-in page, in a browser of the same language.
  const signedOut = await browser.newContext({ locale });
  const signin = await signedOut.newPage();
  await signin.goto(`${BASE}/signin`);
  await expect(signin.locator('form')).toBeVisible();
  left.push(...(await shown(signin, lang, 'signin')));
  await signedOut.close();
  return left;
}

for (const [locale, lang] of [
  ['ja-JP', 'ja'],
  ['en-US', 'en'],
] as const) {
  test.describe(`a ${locale} browser`, () => {
    test.use({ locale });

    test('reads every main page in its own language only', async ({ page, browser }) => {
      test.setTimeout(120_000);
      const left = await journeys(page, browser, lang, locale);
      expect(left, `interface words not in ${lang}`).toEqual([]);
    });
  });
}

test.describe('a ja-JP browser', () => {
  test.use({ locale: 'ja-JP' });

  test('would be told of an English word on its page, and not of data marked as data', async ({ page }) => {
    await signIn(page, ACCOUNT, BASE);
    await page.goto(`${BASE}/history`);
    await expect(page.getByTestId('history-summary')).toBeVisible();
    await page.evaluate(() => {
      const main = document.querySelector('main')!;
      main.insertAdjacentHTML(
        'beforeend',
        '<p data-testid="planted">Rows per page</p><button aria-label="Close">×</button><span translate="no">Sakura Mart</span><span class="mono">demo-key</span>',
      );
    });
    const left = await wordsLeft(page, 'ja');
    expect(left).toContainEqual({ at: 'planted', text: 'Rows per page' });
    expect(left.map((l) => l.text)).toContain('Close');
    expect(left.map((l) => l.text)).not.toContain('Sakura Mart');
    expect(left.map((l) => l.text)).not.toContain('demo-key');
  });

  test('the language switch keeps the view: the same URL and the page’s state, in the other language', async ({
    page,
  }) => {
    await signIn(page, ACCOUNT, BASE);
    const url = `${BASE}/insights?${query(RANGE)}`;
    await page.goto(url);
    await expect(page.getByRole('heading', { level: 1, name: '分析' })).toBeVisible();
    const toggle = page.getByTestId('chart-dlr-toggle');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');
    await expect(toggle).toHaveText('グラフで表示');
    const before = page.url();

    await page.getByRole('radiogroup', { name: '表示言語' }).getByRole('radio', { name: 'English' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Insights' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    expect(page.url()).toBe(before);
    // The table view chosen stays chosen; the coverage note, the server's words, is said again in English.
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');
    await expect(toggle).toHaveText('Show chart');
    await expect(page.getByTestId('coverage-note')).toContainText('complete for');
    await screenshot(page, 'bilingual-switch-en');

    await page.getByRole('radio', { name: '日本語' }).click();
    await expect(page.getByRole('heading', { level: 1, name: '分析' })).toBeVisible();
    await expect(page.getByTestId('coverage-note')).toContainText('集計済み');
    expect(page.url()).toBe(before);
  });
});
