/**
 * Running the dashboard as a service, on a production server of this spec's own over a simulator of
 * its own (in this process: the counts checked are this spec's alone):
 *  - every answer (a page, the API, a 401, a 404) carries X-Request-Id, and the server's log lines
 *    of a request carry the same; a client's own id is not taken;
 *  - /api/health/live and /api/health/ready answer without a session, spend nothing, say nothing more;
 *  - /api/metrics wants its token, and across a scripted session its call counter rises by exactly
 *    the calls the simulator counted; durations are labelled by route pattern, never by path;
 *  - SIGTERM while the upstream hangs: the process is gone within 10 s, its leases given back; a
 *    page whose answer comes during the stop is stored; the next start pays for no page twice.
 */
import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { type APIRequestContext } from '@playwright/test';
import { expect, test } from './test';
import { startSimulator, type RunningSimulator } from '../simulator/server';
import { DATA_ROOT, OPS_PORT } from './env';
import { OwnDashboard } from './own-dashboard';
import { signIn } from './helpers';

const DATA_DIR = path.join(DATA_ROOT, 'operations');
const METRICS_TOKEN = 'e2e-metrics-token-0123456789abcdef';
const DAY_MS = 86_400_000;

let sim: RunningSimulator;
const dashboard = new OwnDashboard(OPS_PORT, () => ({
  DATA_DIR,
  UPSTREAM_BASE_URL: sim.url,
  NEXTAUTH_SECRET: 'e2e-operations-secret-0123456789abcdef0123456789',
  METRICS_TOKEN,
  UPSTREAM_LIMIT_PER_MINUTE: '1000',
  UPSTREAM_LIMIT_PER_HOUR: '10000',
  UPSTREAM_LIMIT_PER_DAY: '100000',
  UPSTREAM_TOKEN_LIMIT_PER_MINUTE: '1000',
  // Every line of a request, to find its id in them.
  LOG_LEVEL: 'info',
}));
const BASE = dashboard.url;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  fs.rmSync(DATA_DIR, { recursive: true, force: true });
  sim = await startSimulator({ port: 0, limits: false, quiet: true, seed: 31, days: 8, perDay: 1500, latencyMs: 20 });
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

const simCalls = () => {
  const total = sim.stats().total;
  return total.requests + total.tokenRequests;
};

/** The server's JSON log lines (LOG_LEVEL info). */
const logLines = () =>
  dashboard.log
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** `name{labels} value` lines of a scrape, summed by the labels that match. */
function sumOf(text: string, name: string, match: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    const m = /^([a-z_]+)(\{[^}]*\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const labels = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(match).every(([k, v]) => labels[k] === v)) sum += Number(m[3]);
  }
  return sum;
}

async function scrape(api: APIRequestContext): Promise<string> {
  const res = await api.get(`${BASE}/api/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

const settledRange = (daysAgo: number, hours: number) => {
  const from = new Date(Date.now() - daysAgo * DAY_MS);
  const wall = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');
  return { 'date-from': wall(from), 'date-to': wall(new Date(from.getTime() + hours * 3600_000)) };
};

test('every answer carries a request id, and the log lines of that request carry the same', async ({
  page,
  request,
}) => {
  // A page, an API answer without a session, a route that does not exist: each has its own id.
  const pageAnswer = await request.get(`${BASE}/signin`);
  const unauthenticated = await request.get(`${BASE}/api/quota`);
  const missing = await request.get(`${BASE}/no-such-page`);
  const ids = [pageAnswer, unauthenticated, missing].map((r) => r.headers()['x-request-id']);
  for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  expect(new Set(ids).size).toBe(3);
  expect(unauthenticated.status()).toBe(401);
  expect(missing.status()).toBe(404);
  // No trusted proxy here: a client's own id is replaced.
  const chosen = await request.get(`${BASE}/api/health/live`, { headers: { 'X-Request-Id': 'chosen-by-me' } });
  expect(chosen.headers()['x-request-id']).not.toBe('chosen-by-me');

  // A sign-in writes a line (signin.ok): it carries the id the callback's answer carries.
  const api = page.context().request;
  const { csrfToken } = (await (await api.get(`${BASE}/api/auth/csrf`)).json()) as { csrfToken: string };
  const callback = await api.post(`${BASE}/api/auth/callback/credentials`, {
    form: { csrfToken, apiKey: 'demo', apiSecret: 'demo-secret', callbackUrl: `${BASE}/transactions`, json: 'true' },
    maxRedirects: 0,
  });
  const callbackId = callback.headers()['x-request-id'];
  expect(callbackId).toMatch(/^[0-9a-f-]{36}$/);
  await expect
    .poll(() => logLines().find((l) => l.event === 'signin.ok' && l.account === 'demo')?.requestId)
    .toBe(callbackId);
});

test('health answers without a session, spends nothing and says nothing more', async ({ request }) => {
  const before = simCalls();
  const live = await request.get(`${BASE}/api/health/live`);
  expect(live.status()).toBe(200);
  expect(await live.json()).toEqual({ status: 'ok' });
  const ready = await request.get(`${BASE}/api/health/ready`);
  expect(ready.status()).toBe(200);
  expect(await ready.json()).toEqual({ status: 'ready' });
  expect(ready.headers()['cache-control']).toBe('no-store');
  expect(simCalls()).toBe(before);
});

test('metrics: behind the token; the call counter rises by exactly the calls the simulator counted', async ({
  page,
  request,
}) => {
  expect((await request.get(`${BASE}/api/metrics`)).status()).toBe(401);
  expect(
    (await request.get(`${BASE}/api/metrics`, { headers: { Authorization: 'Bearer not-the-token-at-all' } })).status(),
  ).toBe(401);

  const before = await scrape(request);
  const callsBefore = simCalls();

  // A support person's session: sign in, a search, its next page (cached), the first again
  // (cached), a record seen on it (no call), one never seen (a call), a search of the local
  // history's own (no call: nothing held).
  await signIn(page, 'fuji', BASE);
  const api = page.context().request;
  const range = settledRange(5, 6);
  const first = await api.get(`${BASE}/api/transactions?${new URLSearchParams({ ...range, 'page-size': '25' })}`);
  expect(first.status()).toBe(200);
  const body = (await first.json()) as { _embedded: { cdrs: { trx_id: string }[] } };
  for (const p of ['2', '1'])
    expect(
      (
        await api.get(`${BASE}/api/transactions?${new URLSearchParams({ ...range, 'page-size': '25', page: p })}`)
      ).status(),
    ).toBe(200);
  expect((await api.get(`${BASE}/api/transactions/${body._embedded.cdrs[0]!.trx_id}`)).status()).toBe(200);
  expect((await api.get(`${BASE}/api/transactions/${'0'.repeat(32)}`)).status()).toBe(404);

  const after = await scrape(request);
  const counted = sumOf(after, 'sms_upstream_calls_total') - sumOf(before, 'sms_upstream_calls_total');
  expect(simCalls() - callsBefore).toBeGreaterThanOrEqual(3);
  expect(counted).toBe(simCalls() - callsBefore);
  // By class and outcome: the sign-in's token, the search and the unknown record's detail.
  expect(sumOf(after, 'sms_upstream_calls_total', { class: 'interactive', outcome: '2xx' })).toBeGreaterThan(0);
  expect(sumOf(after, 'sms_upstream_calls_total', { class: 'interactive', outcome: '4xx' })).toBeGreaterThan(0);
  expect(sumOf(after, 'sms_cache_requests_total', { result: 'hit' })).toBeGreaterThanOrEqual(3);
  expect(sumOf(after, 'sms_cache_requests_total', { result: 'miss' })).toBeGreaterThanOrEqual(1);
  expect(sumOf(after, 'sms_governor_wait_seconds_count', { class: 'interactive' })).toBeGreaterThan(0);
  // Durations by the route's pattern: the record's route once, whatever its id.
  expect(sumOf(after, 'sms_http_request_duration_seconds_count', { route: '/api/transactions/[trxId]' })).toBe(2);
  expect(after).not.toContain(body._embedded.cdrs[0]!.trx_id);
  // The store's figures, and the process's own.
  for (const window of ['minute', 'hour', 'day'])
    expect(after).toMatch(
      new RegExp(`sms_upstream_quota_remaining\\{window="${window}",scope="lowest_account"\\} \\d+`),
    );
  expect(after).toContain('sms_history_lag_days 0');
  expect(after).toContain('sms_export_jobs{state="running"} 0');
  expect(after).toContain('process_resident_memory_bytes');
});

test('a stop is bounded with the upstream hanging, gives its leases back, and the next start pays no page twice', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, 'minato', BASE);
  const api = page.context().request;
  // Slow enough to act between two pages.
  sim.setFaults({ latencyMs: 300 });
  const day = new Date(Date.now() - 5 * DAY_MS).toISOString().slice(0, 10);
  const created = await api.post(`${BASE}/api/exports`, {
    data: { 'date-from': `${day} 00:00:00`, 'date-to': `${day} 23:59:59` },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const job = async () =>
    (await (await api.get(`${BASE}/api/exports/${id}`)).json()) as {
      state: string;
      progress: { recordsFetched: number; totalExpected: number | null };
      countCheck: { expected: number; written: number } | null;
    };
  const queries = () => sim.stats().accounts.minato?.queryRequests ?? 0;
  await expect.poll(async () => (await job()).progress.recordsFetched, { timeout: 30_000 }).toBeGreaterThanOrEqual(100);

  // The next call hangs: the upstream never answers it.
  const beforeHang = queries();
  sim.setFaults({ hang: true });
  await expect.poll(() => queries() > beforeHang && (sim.stats().accounts.minato?.inFlight ?? 0) > 0).toBe(true);
  const started = Date.now();
  await dashboard.stop('SIGTERM');
  const took = Date.now() - started;
  expect(took).toBeLessThan(10_000);
  expect(dashboard.lastExit).toEqual({ code: 143, signal: null });
  expect(dashboard.log).toContain('"event":"shutdown.done"');
  // Its leases were given back as it stopped, not left to expire.
  const store = new SqliteDatabase(path.join(DATA_DIR, 'dashboard.sqlite'), { readonly: true });
  try {
    expect(store.prepare("select count(*) as n from leases where resource like 'export:%'").get()).toEqual({ n: 0 });
  } finally {
    store.close();
  }

  // Started again with the upstream slow but answering; stopped while a call is out: its answer
  // comes within the stop's grace and is stored, not asked again.
  sim.clearFaults();
  sim.setFaults({ latencyMs: 2_000 });
  await dashboard.start();
  await expect.poll(() => (sim.stats().accounts.minato?.inFlight ?? 0) > 0, { timeout: 30_000 }).toBe(true);
  const slowStarted = Date.now();
  await dashboard.stop('SIGTERM');
  expect(Date.now() - slowStarted).toBeLessThan(10_000);

  sim.clearFaults();
  await dashboard.start();
  await expect.poll(async () => (await job()).state, { timeout: 60_000 }).toBe('done');
  const done = await job();
  const pages = Math.ceil((done.progress.totalExpected ?? 0) / 100);
  expect(pages).toBeGreaterThan(3);
  // Every page paid for once; only the call that never got an answer was made again.
  expect(queries()).toBe(pages + 1);
  expect(done.countCheck).toEqual(
    expect.objectContaining({ expected: done.progress.totalExpected, written: done.progress.totalExpected }),
  );
});
