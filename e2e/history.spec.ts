/**
 * The local history end to end, on a dashboard of this spec's own over a simulator of its own (in
 * this process, limits off, a little latency so the copy can be watched), because the copy spends
 * dozens of calls of its account: on the shared servers they would move the counts other specs check.
 * The simulator's dataset is the oracle.
 *  - the History page: a start day the server refuses, then a few settled days back, Start, the
 *    days going to complete with the simulator's own counts, the summary saying so;
 *  - searches over those days cost nothing and say they came from the local history: a plain one,
 *    free text in Japanese, and the last digits of a number;
 *  - Pause, then Delete local copy: the days are no longer complete and nothing is kept.
 */
import fs from 'node:fs';
import path from 'node:path';
import { type APIRequestContext, type Page } from '@playwright/test';
import { expect, test } from './test';
import { startSimulator, type RunningSimulator } from '../simulator/server';
import type { HistoryState } from '../lib/history/api';
import type { Cdr, TransactionsPage } from '../lib/search/api';
import { DATA_ROOT, HISTORY_PORT } from './env';
import { OwnDashboard } from './own-dashboard';
import { formReady, resultRows, screenshot, seriousA11yViolations, signIn } from './helpers';

const PORT = HISTORY_PORT;
const DATA_DIR = path.join(DATA_ROOT, 'history');
const ACCOUNT = 'demo';
const ENTERPRISE = 'ent-sakura';
/** A word of Sakura Mart's pickup message (simulator/templates.ts): "store pickup". */
const WORD = '店舗受取';
const DAY_MS = 86_400_000;

let sim: RunningSimulator;
const dashboard = new OwnDashboard(PORT, () => ({
  DATA_DIR,
  UPSTREAM_BASE_URL: sim.url,
  NEXTAUTH_SECRET: 'e2e-history-secret-0123456789abcdef0123456789',
  UPSTREAM_LIMIT_PER_MINUTE: '1000',
  UPSTREAM_LIMIT_PER_HOUR: '10000',
  UPSTREAM_LIMIT_PER_DAY: '100000',
  UPSTREAM_TOKEN_LIMIT_PER_MINUTE: '1000',
}));
const BASE = dashboard.url;

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const count = (n: number) => n.toLocaleString('en-US');

/** The simulator's records of the account's enterprise received on a UTC day. */
function recordsOn(day: string): number[] {
  const from = Date.parse(`${day}T00:00:00Z`);
  return sim.dataset.query({
    from,
    to: from + DAY_MS - 1,
    enterpriseId: ENTERPRISE,
    order: 'asc',
    offset: 0,
    limit: 1_000_000,
  }).indices;
}

function queryCalls(): number {
  return sim.stats().accounts[ACCOUNT]?.queryRequests ?? 0;
}

async function mirrorState(api: APIRequestContext): Promise<HistoryState> {
  const res = await api.get(`${BASE}/api/history`);
  expect(res.status()).toBe(200);
  return (await res.json()) as HistoryState;
}

/** The search through the API, from the page's signed-in context. */
async function search(api: APIRequestContext, params: Record<string, string>): Promise<TransactionsPage> {
  const res = await api.get(`${BASE}/api/transactions?${new URLSearchParams({ 'page-size': '100', ...params })}`);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as TransactionsPage;
}

function field(cdr: Cdr, key: string): string {
  return String((cdr as unknown as Record<string, unknown>)[key] ?? '');
}

/**
 * A download's Content-Disposition for a query holding Japanese: the whole name, each Japanese filter
 * value in it, in filename* (UTF-8, percent-encoded); beside it an ASCII-only filename.
 */
function expectJapaneseName(disposition: string | undefined, ending: RegExp): void {
  expect(disposition).toMatch(
    /^attachment; filename="sms_[\x20-\x7e]+\.csv"; filename\*=UTF-8''[A-Za-z0-9%._~!$&+^`|-]+$/,
  );
  const name = decodeURIComponent(/filename\*=UTF-8''([^;]+)/.exec(disposition ?? '')?.[1] ?? '');
  for (const part of ['_UTC_', 'oa-サクラ', 'client-reference-注文', `q-${WORD}`]) expect(name).toContain(part);
  expect(name).toMatch(ending);
}

async function openSearch(page: Page, params: Record<string, string>): Promise<void> {
  await page.goto(`${BASE}/transactions?${new URLSearchParams(params)}`);
  await expect(resultRows(page).first()).toBeVisible();
}

test.beforeAll(async () => {
  fs.rmSync(DATA_DIR, { recursive: true, force: true });
  sim = await startSimulator({ port: 0, limits: false, quiet: true, seed: 23, days: 8, perDay: 1500, latencyMs: 30 });
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

test('copy a few settled days, search them for free (Japanese free text, last digits), then delete the copy', async ({
  page,
}) => {
  await signIn(page, ACCOUNT, BASE);
  const api = page.context().request;

  // A fresh account: nothing copied, nothing spent.
  await page.goto(`${BASE}/history`);
  await expect(page.getByRole('heading', { level: 1, name: 'Local history' })).toBeVisible();
  await expect(page).toHaveTitle(/Local history/);
  await expect(page.getByRole('link', { name: 'History', exact: true })).toHaveAttribute('aria-current', 'page');
  const summary = page.getByTestId('history-summary');
  await expect(summary).toHaveAttribute('data-state', 'off');
  await expect(page.getByTestId('history-people-calls')).toContainText(/People still have [\d,]+ calls/);

  // A start day past HISTORY_MAX_DAYS: the server's reason, beside the field.
  const initial = await mirrorState(api);
  const today = initial.days[0]!.day;
  const since = page.getByTestId('history-since');
  await since.fill(dayOf(Date.parse(today) - (initial.maxDays + 5) * DAY_MS));
  await page.getByTestId('history-start').click();
  await expect(page.getByTestId('history-since-error')).toContainText(`at most ${initial.maxDays} days`);
  await expect(since).toHaveAttribute('aria-invalid', 'true');
  await expect(summary).toHaveAttribute('data-state', 'off');

  // Six days back: with settled meaning older than 72 hours, the three oldest days are settled.
  const start = dayOf(Date.parse(today) - 6 * DAY_MS);
  await since.fill(start);
  await expect(page.getByTestId('history-since-error')).toHaveCount(0);
  await page.getByTestId('history-start').click();
  await expect(summary).toHaveAttribute('data-state', 'syncing');
  await expect(page.getByTestId('history-pause')).toBeVisible();
  await screenshot(page, 'history-01-syncing');

  const settled = (await mirrorState(api)).days.filter((d) => d.state !== 'unsettled').map((d) => d.day);
  expect(settled).toEqual([2, 1, 0].map((n) => dayOf(Date.parse(start) + n * DAY_MS)));
  const complete = page.locator('[data-testid="history-day"][data-state="complete"]');
  await expect(complete).toHaveCount(settled.length, { timeout: 40_000 });
  await expect(summary).toHaveAttribute('data-state', 'complete');

  // Every day holds exactly the simulator's records of that day, and the summary adds them up.
  let total = 0;
  for (const day of settled) {
    const n = recordsOn(day).length;
    total += n;
    await expect(page.locator(`[data-testid="history-day"][data-day="${day}"]`)).toHaveAttribute(
      'aria-label',
      `${day}: complete, ${count(n)} records`,
    );
  }
  expect(total).toBeGreaterThan(300);
  await expect(page.getByTestId('history-records')).toHaveText(`${count(total)} records`);
  await expect(page.getByTestId('history-calls-left')).toHaveText('None');
  await expect(page.getByTestId('history-complete-at')).toHaveText('Already complete');
  // The simulator serves at most 100 a page unless told otherwise (the seed's recommendation) and
  // refuses more: the sync's first page, asked with 1,000, fell back to 100, and the page says so.
  await expect(page.getByTestId('history-page-size')).toHaveText(
    '100 records a call: the Report API refused 1,000 a page (400)',
  );
  const sized = await mirrorState(api);
  expect(sized.pageSize).toMatchObject({ size: 100, source: 'fallback', refused: { asked: 1000, status: 400 } });
  // What the sync keeps up with: its calls a day at the account's limits, times the page size.
  expect(sized.keepsUpWith).toBeGreaterThan(0);
  expect(sized.keepsUpWith % 100).toBe(0);
  await expect(page.getByTestId('history-keeps-up-with')).toHaveText(
    `About ${count(sized.keepsUpWith)} messages a day`,
  );
  // A call a page: each day's records in pages of 100.
  const pages = settled.reduce((n, day) => n + Math.max(1, Math.ceil(recordsOn(day).length / 100)), 0);
  expect(Number((await page.getByTestId('history-calls-today').innerText()).replace(/,/g, ''))).toBeGreaterThanOrEqual(
    pages,
  );
  await expect(page.locator('[data-testid="history-day"][data-state="unsettled"]').first()).toHaveAttribute(
    'aria-label',
    /: not settled yet$/,
  );
  expect(await seriousA11yViolations(page, 'main')).toEqual([]);
  await screenshot(page, 'history-02-complete');

  // A search over the complete days: from the local history, no call.
  const range = {
    'date-from': `${settled[settled.length - 1]} 00:00:00`,
    'date-to': `${settled[0]} 23:59:59`,
    tz: 'UTC',
  };
  const calls = queryCalls();
  await openSearch(page, range);
  await expect(page.getByTestId('result-source')).toHaveAttribute('data-source', 'history');
  await expect(page.getByTestId('result-source')).toHaveText('From local history · no call');
  await expect(page.getByTestId('search-cost')).toHaveText('Local history: no call.');
  const plain = await search(api, range);
  expect(plain._meta).toMatchObject({ source: 'history', calls: 0 });
  expect(plain._embedded.total_found).toBe(total);

  // Free text in Japanese: exactly the records whose message holds the word.
  const withWord = settled
    .flatMap(recordsOn)
    .filter((i) => (sim.dataset.recordAt(i).message_body ?? '').includes(WORD));
  expect(withWord.length).toBeGreaterThan(0);
  // Typed into the form's local-history filters, as a person would.
  await formReady(page);
  await page.getByTestId('local-filters').locator('summary').click();
  await page.locator('#filter-q').fill(WORD);
  await expect(page.getByTestId('search-cost')).toHaveText('Local history: no call.');
  await page.getByTestId('search-button').click();
  await expect(page).toHaveURL(new RegExp(`q=${encodeURIComponent(WORD)}`));
  await expect(page.getByTestId('record-count')).toHaveText(
    `${count(withWord.length)} ${withWord.length === 1 ? 'record' : 'records'}`,
  );
  await screenshot(page, 'history-03-free-text');
  const byText = await search(api, { ...range, q: WORD });
  expect(byText._meta).toMatchObject({ source: 'history', calls: 0 });
  expect(byText._embedded.total_found).toBe(withWord.length);
  for (const cdr of byText._embedded.cdrs) expect(field(cdr, 'message_body')).toContain(WORD);
  await expect(resultRows(page)).toHaveCount(Math.min(25, withWord.length));

  // Downloads of a query that carries Japanese (free text, client reference, sender ID): the page CSV
  // and an export both answer 200, named in filename* (RFC 6266) with an ASCII fallback, UTF-8 with BOM.
  const japanese = { ...range, q: WORD, 'client-reference': '注文', oa: 'サクラ' };
  const pageCsv = await api.get(`${BASE}/api/transactions?${new URLSearchParams(japanese)}`, {
    headers: { Accept: 'text/csv' },
  });
  expect(pageCsv.status(), await pageCsv.text()).toBe(200);
  expectJapaneseName(pageCsv.headers()['content-disposition'], /_p1\.csv$/);
  expect((await pageCsv.body()).subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  const wordCsv = await api.get(`${BASE}/api/transactions?${new URLSearchParams({ ...range, q: WORD })}`, {
    headers: { Accept: 'text/csv' },
  });
  expect(wordCsv.status()).toBe(200);
  expect(
    decodeURIComponent(/filename\*=UTF-8''([^;]+)/.exec(wordCsv.headers()['content-disposition'] ?? '')![1]!),
  ).toContain(`_q-${WORD}_`);
  expect((await wordCsv.body()).toString('utf8')).toContain(WORD);
  const exported = await api.post(`${BASE}/api/exports`, { data: japanese });
  expect(exported.status(), await exported.text()).toBeLessThan(300);
  const job = (await exported.json()) as { id: string };
  await expect
    .poll(async () => ((await (await api.get(`${BASE}/api/exports/${job.id}`)).json()) as { state: string }).state, {
      timeout: 30_000,
    })
    .toBe('done');
  const done = (await (await api.get(`${BASE}/api/exports/${job.id}`)).json()) as {
    _links: { file: { href: string } };
  };
  const file = await api.get(`${BASE}${done._links.file.href}`);
  expect(file.status()).toBe(200);
  expectJapaneseName(file.headers()['content-disposition'], /\.csv$/);
  expect((await file.body()).subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));

  // The last four digits of a number seen in the results: only numbers ending with them.
  const number = field(plain._embedded.cdrs[0]!, 'to_address');
  const suffix = number.slice(-4);
  const endingWith = settled.flatMap(recordsOn).filter((i) => sim.dataset.recordAt(i).to_address.endsWith(suffix));
  await openSearch(page, { ...range, 'da-suffix': suffix });
  const byDigits = await search(api, { ...range, 'da-suffix': suffix });
  expect(byDigits._meta).toMatchObject({ source: 'history', calls: 0 });
  expect(byDigits._embedded.total_found).toBe(endingWith.length);
  expect(byDigits._embedded.cdrs.map((c) => field(c, 'trx_id'))).toContain(field(plain._embedded.cdrs[0]!, 'trx_id'));
  for (const cdr of byDigits._embedded.cdrs) expect(field(cdr, 'to_address').endsWith(suffix)).toBe(true);
  for (const shown of await page.locator('tbody td[data-kind="phone"]').allInnerTexts())
    expect(shown.replace(/\D/g, '').endsWith(suffix)).toBe(true);
  // Any column orders the whole result over the local history: the price header, a new search for free.
  await openSearch(page, range);
  await page.locator('th[data-column="price"] button').click();
  await expect(page).toHaveURL(/sort=price/);
  await expect(page.locator('th[data-column="price"]')).toHaveAttribute('aria-sort', 'ascending');
  const byPrice = await search(api, { ...range, sort: 'price', 'sort-order': 'asc' });
  // A record without a price sorts as the smallest value.
  const priceOf = (v: string | undefined) => (v ? Number(v) : Number.NEGATIVE_INFINITY);
  const cheapest = Math.min(...settled.flatMap(recordsOn).map((i) => priceOf(sim.dataset.recordAt(i).price)));
  expect(priceOf(field(byPrice._embedded.cdrs[0]!, 'price'))).toBe(cheapest);
  await expect(resultRows(page).first()).toHaveAttribute('data-row-id', field(byPrice._embedded.cdrs[0]!, 'trx_id'));
  expect(queryCalls()).toBe(calls);

  // Pause, then delete the copy: nothing complete, nothing kept.
  await page.goto(`${BASE}/history`);
  await page.getByTestId('history-pause').click();
  await expect(summary).toHaveAttribute('data-state', 'paused');
  await expect(page.getByTestId('history-state')).toHaveText('Paused');
  expect(await mirrorState(api)).toMatchObject({ enabled: false, state: 'paused' });
  await expect(page.getByTestId('history-message')).toContainText('still answer searches for free');
  await page.getByTestId('history-delete').click();
  const dialog = page.getByTestId('history-delete-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(`The ${count(total)} records kept on this server are deleted`);
  await dialog.getByTestId('history-delete-confirm').click();
  await expect(dialog).toBeHidden();
  await expect(complete).toHaveCount(0);
  await expect(page.getByTestId('history-records')).toHaveText('0 records');
  for (const day of settled)
    await expect(page.locator(`[data-testid="history-day"][data-day="${day}"]`)).toHaveAttribute(
      'data-state',
      'pending',
    );
  const after = await mirrorState(api);
  expect(after).toMatchObject({ enabled: false, state: 'off', records: 0 });
});
