/**
 * Two instances of the dashboard on one PostgreSQL, as a deployment behind a load balancer runs
 * them: the suite's production build started twice (`next start`, one DATABASE_URL, one
 * NEXTAUTH_SECRET), a throwaway PostgreSQL (tests/support/postgres.ts; a database on the server of
 * TEST_DATABASE_URL when that is set) and a simulator of this
 * spec's own (in this process, limits off, so the instances' governors are what is under test and
 * the dataset is the oracle). Faults are real: `kill -9` of a whole instance.
 *  - a cookie one instance issued works on the other; sign-out on one ends it on both;
 *  - the instance holding the deployment's one call in flight dies: the other's next call goes
 *    within the upstream timeout, not after it (the advisory lock dies with the connection);
 *  - the instance running an export dies in the middle: the other takes the job over when its
 *    lease runs out and finishes it within a minute, each record once, paying for no page twice.
 * Here rather than in vitest because the instances are the production build, which this suite
 * makes anyway; vitest would have to build it again (minutes) for three tests.
 */
import fs from 'node:fs';
import { expect, test } from './test';
import { signIn, startDashboard, type Proc } from '../bench/lib/processes';
import { parseWallClock } from '../lib/time/zones';
import { startSimulator, type RunningSimulator } from '../simulator/server';
import { createDatabase, startPostgres, type PostgresServer, type TestDatabase } from '../tests/support/postgres';
import pg from 'pg';
import { CLUSTER_PORT, DIST_DIR } from './env';

test.describe.configure({ mode: 'serial' });

const ACCOUNT = 'demo';
const ENTERPRISE = 'ent-sakura';
const UPSTREAM_TIMEOUT_MS = 10_000;

let postgres: PostgresServer | undefined;
let database: TestDatabase;
let sim: RunningSimulator;
const instances: (Proc | null)[] = [null, null];

function start(i: 0 | 1): Promise<Proc> {
  return startDashboard({
    upstreamUrl: sim.url,
    distDir: DIST_DIR,
    build: false,
    port: CLUSTER_PORT + i,
    env: {
      DATABASE_URL: database.url,
      NEXTAUTH_SECRET: 'e2e-cluster-secret-0123456789abcdef0123456789',
      UPSTREAM_LIMIT_PER_MINUTE: '120',
      UPSTREAM_LIMIT_PER_HOUR: '10000',
      UPSTREAM_LIMIT_PER_DAY: '100000',
      UPSTREAM_TOKEN_LIMIT_PER_MINUTE: '1000',
      UPSTREAM_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS),
      // Longer than the timeout: a slot nobody frees would show as a 429 here, not as a slow 200.
      UPSTREAM_QUEUE_WAIT_MS: '30000',
      NEXT_TELEMETRY_DISABLED: '1',
    },
  }).then((proc) => (instances[i] = proc));
}

const url = (i: 0 | 1) => instances[i]!.url;

/** A search of `hours` hours starting `daysAgo` days back (UTC), as the API takes it. */
function search(daysAgo: number, hours: number): string {
  const w = window(daysAgo, hours);
  return `/api/transactions?${new URLSearchParams({ 'date-from': w.from, 'date-to': w.to, tz: 'UTC' })}`;
}

/** A window of whole hours `daysAgo` days back, as UTC wall clocks. */
function window(daysAgo: number, hours: number): { from: string; to: string } {
  const start = new Date(Date.now() - daysAgo * 86_400_000);
  start.setUTCHours(0, 0, 0, 0);
  const fmt = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');
  return { from: fmt(start), to: fmt(new Date(start.getTime() + hours * 3600_000)) };
}

const get = (base: string, path: string, cookie: string) => fetch(`${base}${path}`, { headers: { Cookie: cookie } });

/** next-auth's sign-out, as the page's button does it. */
async function signOut(base: string, cookie: string): Promise<void> {
  const { csrfToken } = (await (await get(base, '/api/auth/csrf', cookie)).json()) as { csrfToken: string };
  const res = await fetch(`${base}/api/auth/signout`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie },
    body: new URLSearchParams({ csrfToken, json: 'true' }),
  });
  expect(res.status).toBeLessThan(400);
}

/** Which instance a process id belongs to (each instance is a process group of its own). */
function instanceOfPid(pid: number): 0 | 1 {
  const group = Number(
    fs
      .readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /, '')
      .split(' ')[2],
  );
  const i = instances.findIndex((p) => p?.child.pid === group);
  if (i !== 0 && i !== 1) throw new Error(`process ${pid} (group ${group}) is not one of the instances`);
  return i;
}

async function leaseHolder(jobId: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ holder: string }>(
      'select holder from leases where resource = $1 and expires_at > $2',
      [`export:${jobId}`, Date.now()],
    );
    return rows[0]?.holder ?? null;
  } finally {
    await client.end();
  }
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  // A server of your own (TEST_DATABASE_URL), as the vitest suite takes it, or a throwaway one.
  const given = process.env.TEST_DATABASE_URL;
  if (!given) postgres = await startPostgres();
  database = await createDatabase(given ?? postgres!.url, 'e2e_cluster');
  sim = await startSimulator({ port: 0, limits: false, quiet: true, seed: 11, days: 30, perDay: 3000, latencyMs: 40 });
  // Both at once, on a fresh database: their migrations meet, one applies them.
  await Promise.all([start(0), start(1)]);
});

test.afterAll(async () => {
  await Promise.all(instances.map((p) => p?.stop('SIGKILL')));
  await sim?.close();
  await database?.drop();
  await postgres?.stop();
});

test('a cookie of one instance works on the other, and sign-out on one ends it on both', async () => {
  const cookie = await signIn(url(0), ACCOUNT, `${ACCOUNT}-secret`);
  expect((await get(url(1), search(3, 1), cookie)).status).toBe(200);
  expect((await get(url(0), '/api/quota', cookie)).status).toBe(200);

  await signOut(url(0), cookie);
  for (const i of [0, 1] as const) {
    expect((await get(url(i), '/api/quota', cookie)).status, `instance ${i}`).toBe(401);
    expect((await get(url(i), search(3, 2), cookie)).status, `instance ${i}`).toBe(401);
  }
});

test('the instance holding the call in flight dies: the other one’s next call goes within the upstream timeout', async () => {
  const cookie = await signIn(url(0), ACCOUNT, `${ACCOUNT}-secret`);
  sim.resetStats();
  // The next upstream call never answers: instance 0's search holds the deployment's one slot.
  sim.setFaults({ hang: true, count: 1 });
  const held = get(url(0), search(4, 1), cookie).catch(() => null);
  await expect.poll(() => sim.stats().total.inFlight, { timeout: 10_000 }).toBe(1);
  // Instance 1 waits behind it.
  const waiting = get(url(1), search(4, 2), cookie);
  await new Promise((r) => setTimeout(r, 1_000));
  expect(sim.stats().total.queryRequests).toBe(1);

  const killedAt = Date.now();
  await instances[0]!.stop('SIGKILL');
  const res = await waiting;
  const after = Date.now() - killedAt;
  expect(res.status).toBe(200);
  expect(after).toBeLessThan(UPSTREAM_TIMEOUT_MS);
  await held;
  console.log(`the other instance's call answered ${after} ms after the kill`);
  await start(0);
});

test('the instance running an export dies in the middle: the other finishes it within a minute, each record once', async () => {
  test.setTimeout(150_000);
  const cookie = await signIn(url(0), ACCOUNT, `${ACCOUNT}-secret`);
  const range = window(6, 48);
  sim.resetStats();
  const created = await fetch(`${url(0)}/api/exports`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Cookie: cookie },
    body: JSON.stringify({
      'date-from': range.from,
      'date-to': range.to,
      tz: 'UTC',
      'sort-order': 'asc',
      columns: ['trx_id'],
    }),
  });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const job = async (i: 0 | 1) =>
    (await (await get(url(i), `/api/exports/${id}`, cookie)).json()) as {
      state: string;
      progress: { recordsFetched: number; totalExpected: number | null; callsSpent: number };
      countCheck: unknown;
      _links: { file?: { href: string } };
    };

  // Kill -9 whichever instance holds the job's lease, once a good part is stored and a good part is not.
  await expect
    .poll(async () => (await job(1)).progress.recordsFetched, { timeout: 30_000, intervals: [50] })
    .toBeGreaterThanOrEqual(500);
  const holder = await leaseHolder(id);
  expect(holder).not.toBeNull();
  const victim = instanceOfPid(Number(holder!.split(':')[1]));
  const survivor = victim === 0 ? 1 : 0;
  const before = await job(survivor);
  await instances[victim]!.stop('SIGKILL');
  const killedAt = Date.now();
  expect(before.progress.totalExpected).toBeGreaterThan(before.progress.recordsFetched);

  await expect.poll(async () => (await job(survivor)).state, { timeout: 60_000, intervals: [250] }).toBe('done');
  const tookOver = Date.now() - killedAt;
  expect(tookOver).toBeLessThan(60_000);
  console.log(`the export was done ${tookOver} ms after the kill`);

  const done = await job(survivor);
  const { indices } = sim.dataset.query({
    from: parseWallClock(range.from, 'UTC')!.getTime(),
    to: parseWallClock(range.to, 'UTC')!.getTime(),
    enterpriseId: ENTERPRISE,
    order: 'asc',
    offset: 0,
    limit: 10_000_000,
  });
  const expected = indices.map((i) => sim.dataset.trxIdAt(i));
  const pages = Math.ceil(expected.length / 100);
  expect(done.countCheck).toMatchObject({ ok: true, expected: expected.length, written: expected.length });
  // One call per stored page; only the page in flight at the kill may have been asked twice.
  expect(done.progress.callsSpent).toBe(pages);
  expect(sim.stats().accounts[ACCOUNT]?.queryRequests).toBeLessThanOrEqual(pages + 1);
  expect(sim.stats().total.maxInFlight).toBe(1);

  const file = await get(url(survivor), done._links.file!.href, cookie);
  expect(file.status).toBe(200);
  const lines = (await file.text())
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .filter(Boolean);
  expect(lines[0]).toBe('trx_id');
  expect(lines.slice(1)).toEqual(expected);
});
