/**
 * Reconcile end to end, on a dashboard of this spec's own over a simulator of its own (limits off
 * upstream; the dashboard's governor at 60 calls a minute), so the simulator's dataset is the
 * oracle and no other spec moves its counts: a CSV uploaded, its plan before any call, the run,
 * the summary, a view filtered by a figure, and the answered file downloaded and read, with
 * screenshots of each state; then a pasted list of numbers set against an expected count, and
 * the page in Japanese.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { startSimulator, type RunningSimulator } from '../simulator/server';
import { DATA_ROOT, RECONCILE_PORT } from './env';
import { OwnDashboard } from './own-dashboard';
import { screenshot, seriousA11yViolations, signIn } from './helpers';

test.describe.configure({ mode: 'serial' });

const BASE = `http://localhost:${RECONCILE_PORT}`;
const DATA_DIR = path.join(DATA_ROOT, 'reconcile');
const ACCOUNT = 'demo';
const ENTERPRISE = 'ent-sakura';
const DAY = 86_400_000;

let sim: RunningSimulator;
const dashboard = new OwnDashboard(RECONCILE_PORT, () => ({
  DATA_DIR,
  UPSTREAM_BASE_URL: sim.url,
  NEXTAUTH_SECRET: 'e2e-reconcile-secret-0123456789abcdef0123456',
  UPSTREAM_LIMIT_PER_MINUTE: '60',
  UPSTREAM_LIMIT_PER_HOUR: '10000',
  UPSTREAM_LIMIT_PER_DAY: '100000',
  UPSTREAM_BACKGROUND_RESERVE: '3',
}));

function calls(): number {
  return sim.stats().accounts[ACCOUNT]?.requests ?? 0;
}

/** A whole UTC day `daysAgo` back, as the form's datetime-local values and as instants. */
function day(daysAgo: number) {
  const from = Math.floor((Date.now() - daysAgo * DAY) / DAY) * DAY;
  const local = (ms: number) => new Date(ms).toISOString().slice(0, 19);
  return { from, to: from + DAY, fromInput: local(from), toInput: local(from + DAY) };
}

function simRecords(from: number, to: number): Record<string, string>[] {
  const { indices } = sim.dataset.query({ from, to, enterpriseId: ENTERPRISE, order: 'asc', offset: 0, limit: 1e6 });
  return indices.map((i) => sim.dataset.recordAt(i, 'UTC') as unknown as Record<string, string>);
}

/** A CSV as the dashboard writes it: BOM, CRLF, quoted cells; read whole. */
function readCsv(text: string): string[][] {
  expect(text.charCodeAt(0)).toBe(0xfeff);
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 1; i < text.length; i++) {
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
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  return rows;
}

async function openReconcile(page: Page): Promise<void> {
  await signIn(page, ACCOUNT, BASE);
  await page.goto(`${BASE}/reconcile`);
  await expect(page.getByTestId('reconcile-plan')).toBeEnabled();
}

test.beforeAll(async () => {
  fs.rmSync(DATA_DIR, { recursive: true, force: true });
  sim = await startSimulator({ port: 0, limits: false, quiet: true, seed: 36, days: 20, perDay: 1500 });
  await dashboard.start();
});

test.afterAll(async () => {
  await dashboard.stop('SIGTERM');
  await sim?.close();
  fs.rmSync(DATA_DIR, { recursive: true, force: true });
});

test('a list of trx_ids: uploaded, planned, run, summed up, filtered and downloaded', async ({ page }) => {
  test.setTimeout(120_000);
  await openReconcile(page);
  await screenshot(page, 'reconcile-form');
  const d = day(9);
  const records = simRecords(d.from, d.to);
  const picked = records.filter((_, i) => i % 3 === 0);
  const csv = [
    'trx_id,memo',
    ...picked.map((r, i) => `${i % 4 === 0 ? r.trx_id!.toUpperCase() : r.trx_id},row ${i + 1}`),
    '0123456789abcdef0123456789abcdef,unknown',
    'not-an-id,typo',
    `=HYPERLINK("http://evil"),formula`,
  ].join('\r\n');
  await page.getByTestId('reconcile-file').setInputFiles({
    name: 'キャンペーン.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(csv),
  });
  await page.getByTestId('reconcile-from').fill(d.fromInput);
  await page.getByTestId('reconcile-to').fill(d.toInput);
  const before = calls();
  await page.getByTestId('reconcile-plan').click();

  // The plan, before any call.
  const plan = page.getByTestId('reconcile-plan-panel');
  await expect(plan).toBeVisible();
  await expect(page.getByTestId('plan-rows')).toContainText(`${picked.length + 3} rows`);
  await expect(page.getByTestId('plan-rows')).toContainText('2 not readable');
  await expect(page.getByTestId('plan-cost')).toContainText('At least 1 upstream call');
  await expect(page.getByTestId('plan-one-by-one')).toContainText(`${picked.length + 1} calls`);
  expect(calls()).toBe(before);
  expect(await seriousA11yViolations(page)).toEqual([]);
  await screenshot(page, 'reconcile-plan');

  // The run.
  await page.getByTestId('reconcile-start').click();
  await expect(page.getByTestId('reconcile-state')).toHaveText('Done', { timeout: 60_000 });
  const pages = Math.ceil(records.length / 100);
  expect(calls() - before).toBe(pages);
  await expect(page.getByTestId('reconcile-calls')).toHaveText(`${pages} spent`);
  await expect(page.getByTestId('figure-matched')).toContainText(String(picked.length));
  await expect(page.getByTestId('figure-not_found')).toContainText('1');
  await expect(page.getByTestId('figure-invalid')).toContainText('2');
  const delivered = picked.filter((r) => r.delivery_status === 'DELIVRD').length;
  await expect(page.getByTestId('summary-records')).toHaveText(String(picked.length));
  await expect(page.getByTestId('summary-rate')).toContainText(`${delivered} delivered`);
  expect(await seriousA11yViolations(page)).toEqual([]);
  await screenshot(page, 'reconcile-done');

  // A figure filters the rows; the filter is in the URL.
  await page.getByTestId('figure-invalid').click();
  await expect(page).toHaveURL(/outcome=invalid/);
  const rows = page.getByTestId('reconcile-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText('Not readable');
  await expect(rows.first()).toContainText('only the characters 0-9 and a-f');
  await screenshot(page, 'reconcile-filtered');
  const undelivered = picked.find((r) => r.delivery_status !== 'DELIVRD');
  if (undelivered) {
    await page.getByTestId(`status-${undelivered.delivery_status}`).click();
    await expect(page).toHaveURL(new RegExp(`status=${undelivered.delivery_status}`));
    await expect(rows.first()).toContainText(undelivered.delivery_status!);
  }
  await page.reload();
  await expect(page.getByTestId('reconciliation')).toBeVisible();

  // The answered file: the uploaded columns, then the answer's; every matched row the simulator's record.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('reconcile-download').click()]);
  expect(download.suggestedFilename()).toBe('キャンペーン_reconciled.csv');
  const file = readCsv(fs.readFileSync((await download.path())!, 'utf8'));
  const [header, ...lines] = file;
  expect(header!.slice(0, 6)).toEqual(['trx_id', 'memo', 'outcome', 'problem', 'match', 'answer_trx_id']);
  expect(lines).toHaveLength(picked.length + 3);
  const col = (name: string) => header!.indexOf(name);
  picked.forEach((r, i) => {
    const line = lines[i]!;
    expect(line[col('outcome')]).toBe('matched');
    expect(line[col('answer_trx_id')]).toBe(r.trx_id);
    expect(line[col('delivery_status')]).toBe(r.delivery_status);
    expect(line[col('price')]).toBe(r.price);
  });
  expect(lines[picked.length]![col('outcome')]).toBe('not_found');
  // A cell a spreadsheet would run as a formula is written as text.
  expect(lines[picked.length + 2]![0]).toBe(`'=HYPERLINK("http://evil")`);
});

test('a pasted list of numbers against an expected count, and the page in Japanese', async ({ page }) => {
  test.setTimeout(90_000);
  await openReconcile(page);
  const d = day(12);
  // Three numbers hours apart: three separate spans, each asked alone (one filtered query each).
  const all = simRecords(d.from, d.to);
  const records = [0, 1, 2].map((k) => all[Math.floor((k * all.length) / 3)]!);
  const domestic = (n: string) => `0${n.slice(2, 4)}-${n.slice(4, 8)}-${n.slice(8)}`;
  await page.getByLabel('Lines pasted').check();
  await page
    .getByTestId('reconcile-paste')
    .fill(['宛先番号\t送信日時', ...records.map((r) => `${domestic(r.to_address!)}\t${r.date_received}`)].join('\n'));
  await page.getByText('Against a bill (optional)').click();
  await page.getByLabel('Messages expected').fill('4');
  await page.getByTestId('reconcile-plan').click();
  await expect(page.getByTestId('plan-cost')).toContainText('3 upstream calls');
  await page.getByTestId('reconcile-start').click();
  await expect(page.getByTestId('reconcile-state')).toHaveText('Done', { timeout: 60_000 });
  await expect(page.getByTestId('figure-matched')).toContainText('3');
  await expect(page.getByTestId('variance-count')).toContainText('3 found of 4 expected (−1, −25%)');
  await screenshot(page, 'reconcile-numbers');

  // The same view in Japanese: the language switch's cookie.
  await page.context().addCookies([{ name: 'sms-locale', value: 'ja', url: BASE }]);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('照合');
  await expect(page.getByTestId('reconcile-state')).toHaveText('完了');
  await screenshot(page, 'reconcile-ja');
});
