/**
 * Insights in a real browser over a real local history: the account's settled days are copied
 * through the sync (PUT /api/history, the roomy dashboard's limits), then the page must draw every
 * chart with data, keep the coverage note in view, offer the copy for a range it does not hold,
 * open the filtered transactions from a click on a slice and from a table's link, show its tables
 * to the keyboard, run under the CSP without a violation or a console error, and read alike in
 * both zones. Screenshots in test-results/screenshots.
 */
import { request as playwrightRequest, type APIRequestContext, type Page } from '@playwright/test';
import { expect, test } from './test';
import type { InsightsAnswer } from '../lib/insights/api';
import type { HistoryState } from '../lib/history/api';
import { ACCOUNTS, resultRows, screenshot, signIn, upstreamCalls } from './helpers';

const ACCOUNT = ACCOUNTS.insights;
const DAY = 86_400_000;
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY).toISOString().slice(0, 10);
/** Days 7 to 4 ago are settled (72 h) and copied; the range runs on to today, which is not settled. */
const SINCE = day(7);
const RANGE = { 'date-from': `${SINCE} 00:00:00`, 'date-to': `${day(0)} 23:59:59`, tz: 'UTC' };
const CHARTS = [
  'chart-volume',
  'chart-status',
  'chart-network',
  'chart-sender',
  'chart-api-key',
  'chart-dlr',
  'chart-latency',
  'chart-histogram',
  'chart-cost',
];

const insightsUrl = (params: Record<string, string>) => `/insights?${new URLSearchParams(params).toString()}`;

/** CSP violations, console errors and page errors while the test runs. */
async function watchProblems(page: Page): Promise<string[]> {
  const problems: string[] = [];
  await page.exposeBinding('__reportViolation', (_source, text: string) => problems.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __reportViolation: (t: string) => void }).__reportViolation(
        `CSP ${e.violatedDirective} blocked ${e.blockedURI} ${e.sample}`,
      );
    });
  });
  page.on('console', (msg) => {
    if (msg.type() === 'error' || /Content Security Policy/i.test(msg.text()))
      problems.push(`console ${msg.type()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  return problems;
}

async function copyHistory(request: APIRequestContext): Promise<void> {
  const put = await request.put('/api/history', { data: { enabled: true, since: SINCE } });
  expect(put.status()).toBe(200);
  await expect
    .poll(async () => ((await (await request.get('/api/history')).json()) as HistoryState).state, {
      timeout: 150_000,
      intervals: [1000],
    })
    .toBe('complete');
}

test.describe('insights', () => {
  test.describe.configure({ mode: 'serial' });

  test.beforeAll(async ({ browser, baseURL }) => {
    test.setTimeout(180_000);
    const page = await browser.newPage();
    await signIn(page, ACCOUNT, baseURL!);
    await copyHistory(page.context().request);
    await page.close();
  });

  test('every chart draws the local history’s complete days, with the coverage note, in both zones', async ({
    page,
    baseURL,
  }) => {
    const problems = await watchProblems(page);
    await signIn(page, ACCOUNT, baseURL!);
    const api = (await (
      await page.request.get(`/api/insights?${new URLSearchParams(RANGE).toString()}`)
    ).json()) as InsightsAnswer;
    expect(api.coverage.from).toBe(SINCE);
    expect(api.total).toBeGreaterThan(1000);
    expect(api._meta).toMatchObject({ source: 'history', calls: 0 });
    // Session-checked like every route.
    const anonymous = await playwrightRequest.newContext({ baseURL });
    expect((await anonymous.get(`/api/insights?${new URLSearchParams(RANGE).toString()}`)).status()).toBe(401);
    await anonymous.dispose();

    await page.goto(insightsUrl(RANGE));
    const note = page.getByTestId('coverage-note');
    await expect(note).toContainText(`complete for ${api.coverage.note.match(/complete for ([^(]+)/)?.[1]?.trim()}`);
    await expect(note).toContainText('not settled, not included');
    await expect(page.getByTestId('insights-summary')).toContainText(api.total.toLocaleString('en-US'));
    for (const id of CHARTS) {
      const chart = page.getByTestId(`${id}-chart`);
      await expect(chart.locator('svg.recharts-surface').first(), id).toBeVisible();
      // Bars, slices or lines: something drawn from data.
      await expect(
        chart.locator('.recharts-bar-rectangle, .recharts-pie-sector, .recharts-line-curve').first(),
        id,
      ).toBeVisible();
    }
    // The cost to the last decimal, as the API sums it.
    await expect(page.getByTestId(`price-total-${api.price[0]!.currency}`)).toHaveText(api.price[0]!.total);
    await screenshot(page, 'insights-utc');
    await page.getByTestId('chart-dlr').scrollIntoViewIfNeeded();
    await screenshot(page, 'insights-utc-lower');

    // JST: the same instants read as Japanese days.
    await page.getByRole('radio', { name: 'JST' }).click();
    await expect(page).toHaveURL(/tz=JST/);
    await expect(page.getByTestId('coverage-note')).toContainText('JST days');
    await expect(page.getByTestId('chart-volume-chart').locator('.recharts-bar-rectangle').first()).toBeVisible();
    await screenshot(page, 'insights-jst');

    expect(problems).toEqual([]);
  });

  test('a click on a slice opens the transactions of that status; a table link opens them too', async ({
    page,
    baseURL,
  }) => {
    const problems = await watchProblems(page);
    await signIn(page, ACCOUNT, baseURL!);
    const api = (await (
      await page.request.get(`/api/insights?${new URLSearchParams(RANGE).toString()}`)
    ).json()) as InsightsAnswer;
    const calls = await upstreamCalls(ACCOUNT);
    await page.goto(insightsUrl(RANGE));
    const slice = page.getByTestId('chart-status-chart').locator('.recharts-pie-sector path[data-status="DELIVRD"]');
    await expect(slice).toBeVisible();
    await slice.scrollIntoViewIfNeeded();
    // A donut slice's box centre may fall in the hole: click a point inside the slice itself.
    const point = await slice.evaluate((el) => {
      const path = el as SVGPathElement;
      const box = path.getBBox();
      const matrix = path.getScreenCTM()!;
      for (let i = 1; i < 20; i++) {
        for (let j = 1; j < 20; j++) {
          const p = new DOMPoint(box.x + (box.width * i) / 20, box.y + (box.height * j) / 20);
          if (path.isPointInFill(p)) {
            const screen = p.matrixTransform(matrix);
            return { x: screen.x, y: screen.y };
          }
        }
      }
      return null;
    });
    expect(point).not.toBeNull();
    await page.mouse.click(point!.x, point!.y);
    await expect(page).toHaveURL(/\/transactions\?.*status=DELIVRD/);
    await expect(resultRows(page).first()).toBeVisible();
    await expect(page.getByTestId('results-table').locator('tbody')).not.toContainText('Undeliverable');
    // The table lists what the slice counted (the counted days only), from the local history: no call.
    await expect(page.getByTestId('record-count')).toContainText(api.byStatus.DELIVRD!.toLocaleString('en-US'));
    expect(await upstreamCalls(ACCOUNT)).toBe(calls);
    await screenshot(page, 'insights-drill-status');

    // The keyboard way: the table view of the network chart, its first link.
    await page.goto(insightsUrl(RANGE));
    const toggle = page.getByTestId('chart-network-toggle');
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');
    const link = page.getByTestId('chart-network').getByRole('table').getByRole('link').first();
    await expect(link).toBeVisible();
    await link.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/transactions\?.*network=\d+/);
    await expect(resultRows(page).first()).toBeVisible();
    expect(problems).toEqual([]);
  });

  test('on a phone every chart fits the screen, with its table a tap away', async ({ browser, baseURL }) => {
    const context = await browser.newContext({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    try {
      const problems = await watchProblems(page);
      await signIn(page, ACCOUNT, baseURL!);
      await page.goto(insightsUrl(RANGE));
      await expect(page.getByTestId('insights-summary')).toBeVisible();
      for (const id of CHARTS)
        await expect(page.getByTestId(`${id}-chart`).locator('svg.recharts-surface').first(), id).toBeVisible();
      // Charts were 520 px at the least: the page scrolled sideways and cut them off.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(375);
      for (const id of CHARTS) {
        const box = (await page.getByTestId(id).boundingBox())!;
        expect(box.x + box.width, id).toBeLessThanOrEqual(375);
      }
      await screenshot(page, 'insights-phone');
      const dlr = page.getByTestId('chart-dlr');
      await dlr.scrollIntoViewIfNeeded();
      await screenshot(page, 'insights-phone-dlr');
      await dlr.getByRole('button', { name: 'Show table' }).tap();
      await expect(dlr.getByRole('table')).toBeVisible();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('a range with no local history says so and offers the copy with its cost', async ({ page, baseURL }) => {
    test.setTimeout(180_000);
    const problems = await watchProblems(page);
    await signIn(page, ACCOUNT, baseURL!);
    await page.goto(insightsUrl({ 'date-from': `${day(12)} 00:00:00`, 'date-to': `${day(10)} 23:59:59`, tz: 'UTC' }));
    await expect(page.getByTestId('coverage-note')).toContainText('no complete day in this range');
    await expect(page.getByTestId('coverage-note')).toContainText('not in the local history, not included');
    const offer = page.getByTestId('sync-offer');
    await expect(offer).toContainText(/about \d+ upstream calls/);
    await screenshot(page, 'insights-no-history');
    await page.getByTestId('start-sync').click();
    await expect(page.getByTestId('sync-progress')).toBeVisible();
    // The copy fills the range: the page updates by itself.
    await expect(page.getByTestId('insights-summary')).toBeVisible({ timeout: 120_000 });
    expect(problems).toEqual([]);
  });
});
