/**
 * CSV exports end to end, on a dashboard of this spec's own (the suite's production build, started
 * here as a child process) over a simulator of its own (in this process, limits off), so nothing
 * here moves the call counts other specs check, and the simulator's dataset is the oracle:
 *  - an export of many pages survives `kill -9` of the server in the middle: the restarted server
 *    resumes by itself, and the file holds the simulator's records for the query, once each, in
 *    order, without paying twice for a stored page;
 *  - the button: the rows on screen (written in the browser, no call) and every record of a search
 *    (estimate, then straight away when it fits in the calls free now), each file read and checked;
 *  - a larger export goes to the background: the exports page and the header badge show it, and
 *    it can be cancelled.
 * The dashboard has 60 calls a minute (account and deployment), so a 75-call export cannot go at once.
 */
import fs from 'node:fs';
import path from 'node:path';
import { type Page } from '@playwright/test';
import { expect, test } from './test';
import { startSimulator, type RunningSimulator } from '../simulator/server';
import { DEFAULT_VISIBLE_COLUMNS } from '../lib/cdr/fields';
import { parseWallClock, type Zone } from '../lib/time/zones';
import { DATA_ROOT, EXPORTS_PORT } from './env';
import { OwnDashboard } from './own-dashboard';
import { resultRows, rowIds, screenshot, seriousA11yViolations, signIn } from './helpers';

test.describe.configure({ mode: 'serial' });

const PORT = EXPORTS_PORT;
const BASE = `http://localhost:${PORT}`;
const DATA_DIR = path.join(DATA_ROOT, 'exports');
const ACCOUNT = 'demo';
const ENTERPRISE = 'ent-sakura';
const PER_MINUTE = 60;

let sim: RunningSimulator;
const dashboard = new OwnDashboard(PORT, () => ({
  DATA_DIR,
  UPSTREAM_BASE_URL: sim.url,
  NEXTAUTH_SECRET: 'e2e-exports-secret-0123456789abcdef0123456789',
  UPSTREAM_LIMIT_PER_MINUTE: String(PER_MINUTE),
  UPSTREAM_LIMIT_PER_HOUR: '10000',
  UPSTREAM_LIMIT_PER_DAY: '100000',
  UPSTREAM_BACKGROUND_RESERVE: '3',
}));

/** The simulator's own answer: trx_ids of every record of the query, in its order. */
function expectedIds(from: string, to: string, tz: Zone, order: 'asc' | 'desc'): string[] {
  const f = parseWallClock(from, tz)!.getTime();
  const t = parseWallClock(to, tz)!.getTime();
  const { indices } = sim.dataset.query({
    from: f,
    to: t,
    enterpriseId: ENTERPRISE,
    order,
    offset: 0,
    limit: 10_000_000,
  });
  return indices.map((i) => sim.dataset.trxIdAt(i));
}

function queryCalls(): number {
  return sim.stats().accounts[ACCOUNT]?.queryRequests ?? 0;
}

/** A CSV of the dashboard: BOM, CRLF records; none of the checked columns holds a comma or quote. */
function readCsv(file: string): { header: string[]; rows: string[][] } {
  const bytes = fs.readFileSync(file);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = bytes.subarray(3).toString('utf8');
  expect(text.endsWith('\r\n')).toBe(true);
  const records: string[][] = [];
  // Split on CRLF outside quotes only (a message body may hold a newline inside its quotes).
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      records.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  const [header, ...rows] = records;
  return { header: header ?? [], rows };
}

/** The same instants as JST wall clocks. */
function jst(w: { from: string; to: string }): { from: string; to: string } {
  const plus9 = (v: string) =>
    new Date(Date.parse(`${v.replace(' ', 'T')}Z`) + 9 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
  return { from: plus9(w.from), to: plus9(w.to) };
}

/** A window of whole hours `daysAgo` days back, as UTC wall clocks. */
function window(daysAgo: number, hours: number): { from: string; to: string } {
  const start = new Date(Date.now() - daysAgo * 86_400_000);
  start.setUTCHours(0, 0, 0, 0);
  const fmt = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');
  return { from: fmt(start), to: fmt(new Date(start.getTime() + hours * 3600_000)) };
}

async function openDialog(page: Page) {
  await page.getByTestId('download-csv').click();
  const dialog = page.getByTestId('download-dialog');
  await expect(dialog).toBeVisible();
  return dialog;
}

test.beforeAll(async () => {
  fs.rmSync(DATA_DIR, { recursive: true, force: true });
  sim = await startSimulator({ port: 0, limits: false, quiet: true, seed: 11, days: 30, perDay: 3000, latencyMs: 40 });
  await dashboard.start();
});

test.afterAll(async () => {
  await dashboard.stop('SIGTERM');
  await sim?.close();
  fs.rmSync(DATA_DIR, { recursive: true, force: true });
});

test('an export stopped (SIGTERM) with a call in flight stores that page first: no page is paid twice', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, ACCOUNT, BASE);
  const api = page.context().request;
  const range = window(8, 24);
  const baseline = queryCalls();
  const created = await api.post(`${BASE}/api/exports`, {
    data: { 'date-from': range.from, 'date-to': range.to, tz: 'UTC', 'sort-order': 'asc', columns: ['trx_id'] },
  });
  expect(created.status()).toBe(201);
  const job = (await created.json()) as { id: string };
  await expect
    .poll(async () => (await (await api.get(`${BASE}/api/exports/${job.id}`)).json()).progress.recordsFetched, {
      timeout: 30_000,
      intervals: [50],
    })
    .toBeGreaterThanOrEqual(300);
  // Each answer now takes 2 s: the stop comes while a call is out.
  sim.setFaults({ latencyMs: 2000 });
  await expect.poll(() => queryCalls() - baseline, { timeout: 10_000, intervals: [50] }).toBeGreaterThan(3);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const stoppedAt = Date.now();
  await dashboard.stop('SIGTERM');
  sim.setFaults({});
  // It waited for the answer in flight (up to 2 s), not for the runners' whole grace.
  expect(Date.now() - stoppedAt).toBeLessThan(10_000);

  await dashboard.start();
  await expect
    .poll(async () => (await (await api.get(`${BASE}/api/exports/${job.id}`)).json()).state, {
      timeout: 60_000,
      intervals: [200],
    })
    .toBe('done');
  const pages = Math.ceil(expectedIds(range.from, range.to, 'UTC', 'asc').length / 100);
  expect(queryCalls() - baseline).toBe(pages);
  // Gone again: the exports page's test counts the account's finished exports.
  expect((await api.delete(`${BASE}/api/exports/${job.id}`)).status()).toBeLessThan(300);
});

test('an export killed mid-way resumes after a restart and loses nothing', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, ACCOUNT, BASE);
  const api = page.context().request;
  const range = window(6, 48);
  const baseline = queryCalls();
  const created = await api.post(`${BASE}/api/exports`, {
    data: {
      'date-from': range.from,
      'date-to': range.to,
      tz: 'UTC',
      'sort-order': 'asc',
      columns: ['trx_id', 'date_received', 'delivery_status', 'message_body'],
    },
  });
  expect(created.status()).toBe(201);
  const job = (await created.json()) as { id: string };
  expect(created.headers().location).toBe(`/api/exports/${job.id}`);

  // Kill -9 once a good part is stored and a good part is not.
  let before = { recordsFetched: 0, totalExpected: 0 as number | null };
  await expect
    .poll(
      async () => {
        const j = await (await api.get(`${BASE}/api/exports/${job.id}`)).json();
        before = j.progress;
        return j.progress.recordsFetched;
      },
      { timeout: 30_000, intervals: [50] },
    )
    .toBeGreaterThanOrEqual(800);
  await dashboard.stop('SIGKILL');
  expect(before.totalExpected).toBeGreaterThan(before.recordsFetched);
  const callsAtKill = queryCalls();

  // The restarted server resumes on its own: calls go out before anyone asks for the export.
  await dashboard.start();
  await expect.poll(queryCalls, { timeout: 20_000 }).toBeGreaterThan(callsAtKill);

  await expect
    .poll(async () => (await (await api.get(`${BASE}/api/exports/${job.id}`)).json()).state, {
      timeout: 60_000,
      intervals: [200],
    })
    .toBe('done');
  const done = await (await api.get(`${BASE}/api/exports/${job.id}`)).json();
  const expected = expectedIds(range.from, range.to, 'UTC', 'asc');
  const pages = Math.ceil(expected.length / 100);
  // One call per stored page: only a page in flight at the kill can have been asked twice.
  expect(done.progress.callsSpent).toBe(pages);
  expect(queryCalls() - baseline).toBeLessThanOrEqual(pages + 1);
  expect(done.countCheck).toMatchObject({ ok: true, expected: expected.length, written: expected.length });

  const file = await api.get(`${BASE}${done._links.file.href}`);
  expect(file.status()).toBe(200);
  expect(file.headers()['content-disposition']).toContain(
    `filename="sms_${range.from.slice(0, 10)}T0000_${range.to.slice(0, 10)}T0000_UTC.csv"`,
  );
  // Asked without compression (a script), the file says its length: a download cut short shows.
  const plain = await api.get(`${BASE}${done._links.file.href}`, { headers: { 'Accept-Encoding': 'identity' } });
  expect(Number(plain.headers()['content-length'])).toBe((await plain.body()).length);
  expect(done.fileBytes).toBe((await plain.body()).length);
  const out = path.join(DATA_ROOT, 'exports-killed.csv');
  fs.writeFileSync(out, await file.body());
  const { header, rows } = readCsv(out);
  expect(header).toEqual(['trx_id', 'date_received', 'delivery_status', 'message_body']);
  expect(rows.map((r) => r[0])).toEqual(expected);
  expect(new Set(rows.map((r) => r[0])).size).toBe(rows.length);

  // Another account sees none of it.
  const other = await page.context().browser()!.newContext();
  const otherPage = await other.newPage();
  await signIn(otherPage, 'fuji', BASE);
  for (const url of [`/api/exports/${job.id}`, `/api/exports/${job.id}/file`])
    expect((await other.request.get(`${BASE}${url}`)).status()).toBe(404);
  expect((await other.request.delete(`${BASE}/api/exports/${job.id}`)).status()).toBe(404);
  expect((await (await other.request.get(`${BASE}/api/exports`)).json()).jobs).toEqual([]);
  await other.close();
});

test('Download CSV: the rows on screen, then every record of the search', async ({ page }) => {
  await signIn(page, ACCOUNT, BASE);
  // Searched and shown in JST: the files must say so too.
  const range = jst(window(4, 2));
  await page.goto(
    `${BASE}/transactions?${new URLSearchParams({ 'date-from': range.from, 'date-to': range.to, tz: 'JST' })}`,
  );
  await expect(resultRows(page).first()).toBeVisible();
  const shown = await rowIds(page);
  const callsBefore = queryCalls();

  // 1. The rows on screen: written in the browser from the rows shown, no call.
  let dialog = await openDialog(page);
  await expect(dialog.getByRole('radio', { name: /Rows on screen/ })).toBeChecked();
  expect(await seriousA11yViolations(page, '[data-testid="download-dialog"]')).toEqual([]);
  const [pageDownload] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByTestId('download-confirm').click(),
  ]);
  expect(pageDownload.suggestedFilename()).toMatch(/^sms_.*_JST_p1\.csv$/);
  const pageFile = readCsv((await pageDownload.path())!);
  expect(pageFile.header).toEqual([...DEFAULT_VISIBLE_COLUMNS]);
  expect(pageFile.rows.map((r) => r[1])).toEqual(shown);
  expect(pageFile.rows[0]![0]).toMatch(/\+0900$/);
  await expect(dialog.getByTestId('download-done')).toContainText('No upstream call');
  expect(queryCalls()).toBe(callsBefore);
  await dialog.getByRole('button', { name: 'Close' }).click();

  // 2. Every record: the estimate first (page 1 is cached by the search), then straight away.
  dialog = await openDialog(page);
  await dialog.getByRole('radio', { name: /^All [\d,]+ records/ }).check();
  const estimate = dialog.getByTestId('export-estimate');
  const expected = expectedIds(range.from, range.to, 'JST', 'desc');
  const pages = Math.ceil(expected.length / 100);
  expect(pages).toBeGreaterThan(1);
  await expect(estimate).toContainText(
    `${expected.length.toLocaleString('en-US')} records, ${pages - 1} upstream call${pages - 1 === 1 ? '' : 's'} at 100 a page (1 page already cached)`,
  );
  await expect(estimate).toContainText('free right now');
  await screenshot(page, 'exports-01-estimate');
  const [allDownload] = await Promise.all([
    page.waitForEvent('download', { timeout: 30_000 }),
    dialog.getByTestId('download-confirm').click(),
  ]);
  expect(allDownload.suggestedFilename()).toBe(
    `sms_${range.from.slice(0, 10)}T0900_${range.to.slice(0, 10)}T1100_JST.csv`,
  );
  const allFile = readCsv((await allDownload.path())!);
  expect(allFile.header).toEqual([...DEFAULT_VISIBLE_COLUMNS]);
  expect(allFile.rows.map((r) => r[1])).toEqual(expected);
  expect(allFile.rows.every((r) => r[0]!.endsWith('+0900'))).toBe(true);
  await expect(dialog.getByTestId('download-done')).toContainText(
    `all ${expected.length.toLocaleString('en-US')} records`,
  );
  // The button pressed was disabled meanwhile: the focus waits on Close, not on the page.
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();
  expect(queryCalls()).toBe(callsBefore + pages - 1);
  await dialog.getByRole('button', { name: 'Close' }).click();

  // 3. For Excel: the numbers Excel would change (a 12-digit phone number, a code such as 000) are
  // written as text; the choice is remembered for the next download.
  dialog = await openDialog(page);
  await dialog.getByRole('radio', { name: /Rows on screen/ }).check();
  await dialog.getByTestId('download-excel').check();
  const [excelDownload] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByTestId('download-confirm').click(),
  ]);
  const excelFile = readCsv((await excelDownload.path())!);
  const to = excelFile.header.indexOf('to_address');
  expect(to).toBeGreaterThanOrEqual(0);
  expect(excelFile.rows.every((r) => /^="\d{12,}"$/.test(r[to]!))).toBe(true);
  expect(excelFile.rows.map((r) => r[1])).toEqual(shown);
  await dialog.getByRole('button', { name: 'Close' }).click();
  dialog = await openDialog(page);
  await expect(dialog.getByTestId('download-excel')).toBeChecked();
  await dialog.getByTestId('download-excel').uncheck();
  expect(queryCalls()).toBe(callsBefore + pages - 1);
});

test('a larger export runs in the background: exports page, header badge, cancel', async ({ page }) => {
  await signIn(page, ACCOUNT, BASE);
  const range = window(10, 5 * 24);
  await page.goto(
    `${BASE}/transactions?${new URLSearchParams({ 'date-from': range.from, 'date-to': range.to, tz: 'UTC' })}`,
  );
  await expect(resultRows(page).first()).toBeVisible();
  const dialog = await openDialog(page);
  await dialog.getByRole('radio', { name: /^All [\d,]+ records/ }).check();
  await dialog.getByRole('radio', { name: /^All columns/ }).check();
  const estimate = dialog.getByTestId('export-estimate');
  // The minute's last call is kept for people: 59 of 60 for background work.
  await expect(estimate).toContainText(/\d+ calls: .* at 59 calls a minute/);
  await expect(dialog.getByTestId('download-confirm')).toHaveText('Start export');
  await dialog.getByTestId('download-confirm').click();
  await expect(dialog.getByTestId('export-started')).toBeVisible();
  await dialog.getByRole('link', { name: 'Exports page' }).click();

  await expect(page).toHaveURL(/\/exports$/);
  await expect(page.getByTestId('exports-badge')).toBeVisible();
  const card = page.getByTestId('export-card').first();
  await expect(card.getByTestId('export-state')).toHaveText(/Running|Queued|Waiting for quota until/);
  await expect(card.getByRole('progressbar')).toHaveAttribute('aria-valuetext', /records/);
  await expect(card.getByTestId('export-eta')).toBeVisible();
  expect(await seriousA11yViolations(page, 'main')).toEqual([]);
  await screenshot(page, 'exports-02-running');

  await card.getByTestId('export-cancel').click();
  await expect(card.getByTestId('export-state')).toHaveText('Cancelled');
  await expect(page.getByTestId('exports-badge')).toBeHidden();
  // The two finished exports of the tests above are listed too, with their files.
  await expect(page.getByTestId('export-download')).toHaveCount(2);

  // On a phone the cards fit the screen: the button that names the file wraps, and a card reads
  // in one zone (the JST export's times are JST).
  await page.setViewportSize({ width: 375, height: 812 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(375);
  for (const button of await page.getByTestId('export-download').all()) {
    const box = (await button.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(375);
  }
  const jstCard = page
    .getByTestId('export-card')
    .filter({ hasText: /_JST\.csv/ })
    .first();
  await expect(jstCard).toContainText(
    /Started \d{4}-\d\d-\d\d \d\d:\d\d JST · kept until \d{4}-\d\d-\d\d \d\d:\d\d JST/,
  );
  await screenshot(page, 'exports-03-phone');
});
