/**
 * The export runner against the simulator over real HTTP, with the real client, token keeper,
 * governor and SQLite store (in memory): whole exports, restarts, the page cache, splits, waits for
 * quota and for a sign-in, cancel and permanent errors. The kill -9 of a real server is in
 * e2e/exports.spec.ts; here a "restart" is a new runner over the same store.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../simulator/server';
import { CREDENTIALS } from '../../simulator/accounts';
import type { CdrFieldKey } from '../cdr/fields';
import type { Config } from '../config';
import { Governor } from '../governor/governor';
import { memoryBackend } from '../governor/memory-backend';
import type { PolicyLimits } from '../governor/decision';
import type { Cdr } from '../cdr/schema';
import { HistoryIndex } from '../history/history-index';
import { Planner } from '../search/planner';
import { recordColumns } from '../cdr/record-columns';
import { scopeOf } from '../history/scope';
import { loadHistoryFixture } from '../../tests/support/history-fixture';
import { createLogger } from '../log';
import { cachePolicy } from '../cache/cache-policy';
import { UpstreamGateway } from '../upstream/gateway';
import { openStore, type DurableStore } from '../root/open-store';
import { type ExportJobStore } from './job-store';
import { type LedgerStore } from '../governor/ledger-store';
import { type PageCacheStore } from '../cache/page-cache-store';
import { type VaultStore } from '../auth/vault';
import type { ExportJobRecord } from './job-row';
import type { Zone } from '../time/zones';
import { createTokenKeeper } from '../upstream/token-keeper';
import { createUpstreamClient } from '../upstream/report-api-client';
import { estimateExport } from './estimate';
import { translate } from '../i18n/translate';
import { freezeRange, parseExportRequest } from './export-request';
import { createJobRecord, windowBase } from './job-record';
import { runJobStep } from './job-step';
import { LaterWrites } from './later-writes';
import { ExportRunner, type RunnerDeps } from './runner';

/** A stored job as a person reads it in English: its message and warnings said (they are Words by key). */
function inEnglish(job: ExportJobRecord): Omit<ExportJobRecord, 'message' | 'warnings'> & {
  message: string | null;
  warnings: string[];
} {
  return {
    ...job,
    message: job.message === null ? null : translate('en', job.message),
    warnings: job.warnings.map((w) => translate('en', w)),
  };
}

// The simulator's present: every range below ended before it.
const NOW = Date.UTC(2026, 10, 20, 12, 0, 0);
const COLUMNS: CdrFieldKey[] = ['trx_id', 'date_received', 'to_address', 'delivery_status', 'ref'];

let sim: RunningSimulator;
let tmp: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, limits: false, seed: 7, days: 80, perDay: 240, quiet: true, now: () => NOW });
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'exports-runner-'));
});

afterAll(async () => {
  await sim.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

interface World {
  durable: DurableStore;
  store: ExportJobStore;
  cache: PageCacheStore;
  ledger: LedgerStore;
  vault: VaultStore;
  deps: RunnerDeps;
  governor: Governor;
  gateway: UpstreamGateway;
}

const LIMITS_OFF = { perMinute: 100_000, perHour: 100_000, perDay: 100_000 };
const LIMITS_POLICY: PolicyLimits = {
  account: LIMITS_OFF,
  deployment: null,
  backgroundReserve: 0,
  syncShare: 0.6,
  holdbackShare: 0.2,
  tokensPerMinute: 1000,
};

const opened: DurableStore[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((d) => d.close()));
});

/**
 * A server's state over a fresh store; a second world over the same store is the same server
 * restarted (a new governor, token keeper and runner: only what the store holds carries over).
 */
async function world(
  opts: { limits?: typeof LIMITS_OFF; reserve?: number; durable?: DurableStore } = {},
): Promise<World> {
  let durable = opts.durable;
  if (!durable) {
    durable = await openStore({ dataDir: fs.mkdtempSync(path.join(tmp, 'store-')) });
    opened.push(durable);
  }
  const { ledger, cache, vault, exportJobs: store } = durable;
  const client = createUpstreamClient({ baseUrl: sim.url, timeoutMs: 5_000 });
  const limits: PolicyLimits = {
    account: opts.limits ?? LIMITS_OFF,
    deployment: null,
    backgroundReserve: opts.reserve ?? 0,
    syncShare: 0.6,
    holdbackShare: 0.2,
    tokensPerMinute: 1000,
  };
  const governor = new Governor({ backend: memoryBackend(ledger, 1), limits, maxInFlight: 1, maxWaitMs: 20_000 });
  const tokens = createTokenKeeper({ client });
  const gateway = new UpstreamGateway(client, governor, tokens);
  const config = {
    CACHE_SETTLED_AFTER_HOURS: 72,
    CACHE_SETTLED_TTL_HOURS: 720,
    CACHE_RECENT_TTL_SECONDS: 120,
    EXPORT_RETENTION_DAYS: 7,
  } satisfies Partial<Config>;
  const deps: RunnerDeps = {
    store,
    files: durable.exportFiles,
    leases: durable.leases,
    vault,
    cache,
    local: {
      planner: new Planner({ index: new HistoryIndex(durable.history), upstreamPageSize: 100 }),
      history: durable.history,
    },
    onSharedPage: () => {},
    gateway,
    config,
    policy: cachePolicy(config),
    // The vault's sealed secret is the plain one here: sealing is lib/auth's business.
    secretOf: (entry) => entry.sealedSecret,
    now: Date.now,
    log: createLogger({ level: 'silent' }),
  };
  return { durable, store, cache, ledger, vault, deps, governor, gateway };
}

async function signIn(w: World, apiKey: string, sid = `sid-${apiKey}`): Promise<void> {
  const secret = CREDENTIALS.find((c) => c.apiKey === apiKey)!.secret;
  const now = Date.now();
  await w.vault.put({
    sid,
    apiKey,
    enterpriseId: null,
    sealedSecret: secret,
    createdAt: now,
    expiresAt: now + 3600_000,
  });
}

async function jobFor(
  w: World,
  body: Record<string, unknown>,
  opts: { apiKey?: string; pageSize?: number; columns?: CdrFieldKey[] } = {},
): Promise<ExportJobRecord> {
  const parsed = parseExportRequest(body);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  const frozen = freezeRange(parsed.request.query, NOW);
  if (!frozen.ok) throw new Error(translate('en', frozen.error));
  const apiKey = opts.apiKey ?? 'demo';
  const job = createJobRecord({
    id: `job-${Math.random().toString(36).slice(2)}`,
    account: { apiKey, sid: `sid-${apiKey}`, enterpriseId: null },
    frozen: frozen.frozen,
    columns: opts.columns ?? COLUMNS,
    excel: parsed.request.excel,
    pageSize: opts.pageSize ?? 100,
    now: NOW,
  });
  await w.store.insertJob(job, scopeOf({ apiKey, enterpriseId: null }).key);
  return job;
}

/** The simulator's own answer: trx_ids of every record of the query, in its order, once each. */
function expectedIds(
  apiKey: string,
  from: string,
  to: string,
  tz: Zone,
  order: 'asc' | 'desc',
  filters: Record<string, string> = {},
): string[] {
  const parsed = parseExportRequest({ 'date-from': from, 'date-to': to, tz });
  if (!parsed.ok) throw new Error('bad range');
  const enterpriseId = CREDENTIALS.find((c) => c.apiKey === apiKey)!.enterpriseId;
  const page = sim.dataset.query({
    from: parsed.request.query.from.getTime(),
    to: parsed.request.query.to.getTime(),
    now: NOW,
    enterpriseId,
    filters,
    order,
    offset: 0,
    limit: 10_000_000,
  });
  return page.indices.map((i) => sim.dataset.trxIdAt(i));
}

/** Runs steps until the job stops or waits (no runner, no timers). */
async function drive(w: World, id: string, maxSteps = 100_000): Promise<string> {
  for (let i = 0; i < maxSteps; i++) {
    const outcome = await runJobStep(w.deps, id);
    if (outcome.next !== 'continue') return outcome.next;
  }
  return 'continue';
}

async function fileOf(w: World, id: string): Promise<{ header: string[]; rows: string[][]; raw: string }> {
  const stream = await w.deps.files.read(id);
  expect(stream, 'the export has a file').not.toBeNull();
  const chunks: Buffer[] = [];
  for await (const chunk of stream!) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8');
  expect(raw.startsWith('\uFEFF')).toBe(true);
  const lines = raw.slice(1).split('\r\n');
  expect(lines.pop()).toBe('');
  // None of the chosen columns holds a comma, quote or newline in the simulator's data.
  const [header, ...rows] = lines.map((l) => l.split(','));
  return { header: header!, rows, raw };
}

describe('the export runner', () => {
  beforeEach(() => sim.resetStats());

  it('exports a 40-day range as two windows, every record once, in order, one call per page', async () => {
    const w = await world();
    await signIn(w, 'demo');
    const job = await jobFor(w, {
      'date-from': '2026-09-01 00:00:00',
      'date-to': '2026-10-11 00:00:00',
      tz: 'JST',
      'sort-order': 'asc',
    });
    expect(job.windows).toHaveLength(2);
    expect(await drive(w, job.id)).toBe('stop');
    const done = inEnglish((await w.store.getJob(job.id))!);
    expect(done.state).toBe('done');
    const expected = expectedIds('demo', '2026-09-01 00:00:00', '2026-10-11 00:00:00', 'JST', 'asc');
    expect(expected.length).toBeGreaterThan(1000);
    const file = await fileOf(w, job.id);
    expect(file.header).toEqual(COLUMNS);
    expect(file.rows.map((r) => r[0])).toEqual(expected);
    // Timestamps in the chosen zone, with its offset.
    expect(file.rows[0]![1]).toMatch(/\+0900$/);
    const pages = done.windows.reduce((sum, x) => sum + (x.pagesTotal ?? 0), 0);
    expect(done.callsSpent).toBe(pages);
    expect(done.countCheck).toMatchObject({ ok: true, written: expected.length });
    expect(done.warnings[0]).toContain('2 consecutive windows');
    // The records were deleted from the store once the file was written.
    expect(await w.store.countRows(job.id)).toBe(0);
  });

  it('writes the file for Excel when asked: phone numbers as text', async () => {
    const w = await world();
    await signIn(w, 'demo');
    const job = await jobFor(w, { 'date-from': '2026-10-01 00:00:00', 'date-to': '2026-10-01 06:00:00', excel: true });
    expect(await drive(w, job.id)).toBe('stop');
    const file = await fileOf(w, job.id);
    const to = file.header.indexOf('to_address');
    expect(file.rows.length).toBeGreaterThan(0);
    // The cell's CSV text: quoted, its own quotes doubled, around ="digits".
    expect(file.rows.every((r) => /^"=""\d{12,}"""$/.test(r[to]!))).toBe(true);
  });

  it('writes the same file for a job made before its rows held their lines (its rows JSON, made into lines at the end)', async () => {
    const w = await world();
    await signIn(w, 'demo');
    const body = { 'date-from': '2026-10-01 00:00:00', 'date-to': '2026-10-03 00:00:00', tz: 'JST', excel: true };
    const columns: CdrFieldKey[] = ['trx_id', 'date_received', 'to_address', 'message_body', 'price'];
    const current = await jobFor(w, body, { columns });
    const before = await jobFor(w, body, { columns });
    delete before.rowFormat;
    await w.store.saveJob(before);
    expect(await drive(w, current.id)).toBe('stop');
    expect(await drive(w, before.id)).toBe('stop');
    const [a, b] = [(await fileOf(w, current.id)).raw, (await fileOf(w, before.id)).raw];
    expect(a.split('\r\n').length).toBeGreaterThan(100);
    expect(a).toMatch(/\+0900/);
    expect(b).toBe(a);
  });

  it('writes the right file when an instance of the version before stored some of its pages (a rolling upgrade)', async () => {
    const w = await world();
    await signIn(w, 'demo');
    const body = {
      'date-from': '2026-10-01 00:00:00',
      'date-to': '2026-10-03 00:00:00',
      tz: 'JST',
      excel: true,
      'sort-order': 'asc',
    };
    const columns: CdrFieldKey[] = ['trx_id', 'date_received', 'to_address', 'price'];
    const job = await jobFor(w, body, { columns });
    expect((await runJobStep(w.deps, job.id)).next).toBe('continue');
    // The next page as the version before stores it, the JSON of the record's columns (that
    // version keeps the job's `rowFormat` it does not know, as it keeps any field of the record).
    const stored = inEnglish((await w.store.getJob(job.id))!);
    delete stored.rowFormat;
    await w.store.saveJob(stored);
    expect((await runJobStep(w.deps, job.id)).next).toBe('continue');
    const after = inEnglish((await w.store.getJob(job.id))!);
    after.rowFormat = 'csv-line';
    await w.store.saveJob(after);
    expect((await w.store.rowBatch(job.id, 0, 1_000)).filter((r) => r.body.startsWith('{"')).length).toBe(100);
    expect(await drive(w, job.id)).toBe('stop');
    const expected = expectedIds('demo', '2026-10-01 00:00:00', '2026-10-03 00:00:00', 'JST', 'asc');
    const file = await fileOf(w, job.id);
    expect(file.rows.map((r) => r[0])).toEqual(expected);
    expect(file.raw).not.toContain('{"');
    // The same bytes as a job all of whose pages this version stored.
    const again = await jobFor(w, body, { columns });
    expect(await drive(w, again.id)).toBe('stop');
    expect(file.raw).toBe((await fileOf(w, again.id)).raw);
  });

  it('resumes after a restart where it stopped, never paying twice for a page', async () => {
    const w = await world();
    await signIn(w, 'demo');
    const job = await jobFor(w, {
      'date-from': '2026-10-01 00:00:00',
      'date-to': '2026-10-20 00:00:00',
      'sort-order': 'desc',
    });
    // The first life reads 5 pages, then the process "dies".
    for (let i = 0; i < 5; i++) expect((await runJobStep(w.deps, job.id)).next).toBe('continue');
    const mid = inEnglish((await w.store.getJob(job.id))!);
    expect(mid.callsSpent).toBe(5);
    // The second life: a fresh runner, governor and token keeper over the same store and folder.
    const revived = await world({ durable: w.durable });
    const runner = new ExportRunner(revived.deps);
    runner.start();
    await waitFor(async () => inEnglish((await w.store.getJob(job.id))!).state === 'done');
    await runner.stop();
    const done = inEnglish((await w.store.getJob(job.id))!);
    const pages = done.windows[0]!.pagesTotal!;
    expect(done.callsSpent).toBe(pages);
    expect((await w.ledger.callsSince(0)).filter((c) => c.account === 'demo' && c.cls === 'export').length).toBe(pages);
    const expected = expectedIds('demo', '2026-10-01 00:00:00', '2026-10-20 00:00:00', 'UTC', 'desc');
    expect((await fileOf(w, job.id)).rows.map((r) => r[0])).toEqual(expected);
  });

  it('keeps a page it paid for when the store cannot be written for a moment (a database restarting), and does not pay for it again', async () => {
    const w = await world();
    await signIn(w, 'demo');
    const job = await jobFor(w, {
      'date-from': '2026-10-01 00:00:00',
      'date-to': '2026-10-05 00:00:00',
      'sort-order': 'asc',
    });
    // The third page's write finds the store gone once; it answers again a moment later.
    let writes = 0;
    const store = w.deps.store;
    w.deps.store = {
      ...store,
      commitPage: async (...args: Parameters<ExportJobStore['commitPage']>) => {
        writes += 1;
        if (writes === 3)
          throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
        return store.commitPage(...args);
      },
    };
    expect(await drive(w, job.id)).toBe('stop');
    const done = inEnglish((await w.store.getJob(job.id))!);
    expect(done.state).toBe('done');
    const pages = done.windows[0]!.pagesTotal!;
    expect(pages).toBeGreaterThan(3);
    expect(done.callsSpent).toBe(pages);
    expect(sim.stats().accounts.demo?.queryRequests).toBe(pages);
    expect((await fileOf(w, job.id)).rows.map((r) => r[0])).toEqual(
      expectedIds('demo', '2026-10-01 00:00:00', '2026-10-05 00:00:00', 'UTC', 'asc'),
    );
  });

  it('takes pages the dashboard already cached instead of calling', async () => {
    const w = await world();
    await signIn(w, 'demo');
    const job = await jobFor(w, {
      'date-from': '2026-10-01 00:00:00',
      'date-to': '2026-10-04 00:00:00',
      'sort-order': 'desc',
    });
    // The dashboard showed page 1 of this search a moment ago (same upstream query, same key).
    const base = windowBase(job, job.windows[0]!);
    const { page: page1 } = await w.deps.gateway.query(
      { apiKey: 'demo', enterpriseId: null, credentials: async () => ({ apiKey: 'demo', secret: 'demo-secret' }) },
      { base, page: 1, sortOrder: 'desc' },
      'interactive',
    );
    await w.cache.putPage('demo', {
      queryKey: base.key,
      sortOrder: 'desc',
      page: 1,
      totalFound: page1._embedded.total_found,
      body: page1,
      fetchedAt: Date.now(),
      expiresAt: Date.now() + 60_000,
    });
    expect(await drive(w, job.id)).toBe('stop');
    const done = inEnglish((await w.store.getJob(job.id))!);
    expect(done.pagesCached).toBe(1);
    expect(done.callsSpent).toBe(done.windows[0]!.pagesTotal! - 1);
    expect((await fileOf(w, job.id)).rows.map((r) => r[0])).toEqual(
      expectedIds('demo', '2026-10-01 00:00:00', '2026-10-04 00:00:00', 'UTC', 'desc'),
    );
  });

  it('does not take a cached page of another snapshot of the result (its count differs from the window’s)', async () => {
    const w = await world();
    await signIn(w, 'demo');
    const job = await jobFor(w, {
      'date-from': '2026-10-01 00:00:00',
      'date-to': '2026-10-04 00:00:00',
      'sort-order': 'desc',
    });
    const base = windowBase(job, job.windows[0]!);
    const demo = {
      apiKey: 'demo',
      enterpriseId: null,
      credentials: async () => ({ apiKey: 'demo', secret: 'demo-secret' }),
    };
    const { page: page2 } = await w.deps.gateway.query(demo, { base, page: 2, sortOrder: 'desc' }, 'interactive');
    // Page 2 as the dashboard cached it when the result held five records more.
    const other = { ...page2, _embedded: { ...page2._embedded, total_found: page2._embedded.total_found + 5 } };
    await w.cache.putPage('demo', {
      queryKey: base.key,
      sortOrder: 'desc',
      page: 2,
      totalFound: other._embedded.total_found,
      body: other,
      fetchedAt: Date.now(),
      expiresAt: Date.now() + 60_000,
    });
    expect(await drive(w, job.id)).toBe('stop');
    const done = inEnglish((await w.store.getJob(job.id))!);
    expect(done.pagesCached).toBe(0);
    expect(done.callsSpent).toBe(done.windows[0]!.pagesTotal!);
    expect(done.countCheck).toMatchObject({ ok: true });
  });

  it('gives the dashboard a copy of each page it reads, written while its next call is in flight, and the index of its records once done', async () => {
    const w = await world();
    await signIn(w, 'demo');
    const job = await jobFor(w, {
      'date-from': '2026-10-01 00:00:00',
      'date-to': '2026-10-04 00:00:00',
      'sort-order': 'desc',
    });
    const key = windowBase(job, job.windows[0]!).key;
    const later = new LaterWrites();
    expect((await runJobStep(w.deps, job.id, undefined, later)).next).toBe('continue');
    // Page 1 is the export's own (stored with its progress), not yet the dashboard's.
    expect(inEnglish((await w.store.getJob(job.id))!).windows[0]!.pagesDone).toBe(1);
    expect(await w.cache.getPage('demo', key, 'desc', 1)).toBeNull();
    expect((await runJobStep(w.deps, job.id, undefined, later)).next).toBe('continue');
    expect(await w.cache.getPage('demo', key, 'desc', 1)).toMatchObject({ page: 1, sortOrder: 'desc' });
    await later.flush();
    // The runner leaves every page to the dashboard by the time the job is done.
    const runner = new ExportRunner(w.deps);
    runner.start();
    await waitFor(async () => inEnglish((await w.store.getJob(job.id))!).state === 'done');
    await runner.stop();
    const pages = inEnglish((await w.store.getJob(job.id))!).windows[0]!.pagesTotal!;
    expect(pages).toBeGreaterThan(2);
    for (let page = 1; page <= pages; page++)
      expect(await w.cache.getPage('demo', key, 'desc', page), `page ${page}`).not.toBeNull();
    // Once it is done, every record of those pages is found by its trx_id, with no call.
    const expected = expectedIds('demo', '2026-10-01 00:00:00', '2026-10-04 00:00:00', 'UTC', 'desc');
    for (const trxId of [expected[0]!, expected[150]!, expected.at(-1)!])
      expect(await w.cache.getRecord('demo', trxId), trxId).toMatchObject({ cdr: { trx_id: trxId } });
  });

  it('splits a window deeper than the upstream\u2019s 1000 pages and says so', async () => {
    const w = await world();
    await signIn(w, 'demo');
    // At 1 record a page the upstream reaches 1000 records: eight and a half days of demo traffic are deeper.
    const job = await jobFor(
      w,
      { 'date-from': '2026-10-01 00:00:00', 'date-to': '2026-10-09 12:00:00', 'sort-order': 'asc' },
      { pageSize: 1, columns: ['trx_id', 'date_received'] },
    );
    const expected = expectedIds('demo', '2026-10-01 00:00:00', '2026-10-09 12:00:00', 'UTC', 'asc');
    expect(expected.length).toBeGreaterThan(1000);
    expect(await drive(w, job.id)).toBe('stop');
    const done = inEnglish((await w.store.getJob(job.id))!);
    expect(done.windows.some((x) => x.state === 'split')).toBe(true);
    expect(done.warnings.join(' ')).toMatch(/narrower windows/);
    expect((await fileOf(w, job.id)).rows.map((r) => r[0])).toEqual(expected);
    expect(done.countCheck).toMatchObject({ ok: true });
  }, 60_000);

  /**
   * demo at the seed's limits with 3 kept for people, and seven calls this hour already (the first
   * 50 minutes ago): the background share (10 − 3) is used up until that first call leaves the hour.
   */
  async function hourUsedUp(): Promise<{ w: World; freesAt: number }> {
    const w = await world({ limits: { perMinute: 3, perHour: 10, perDay: 100 }, reserve: 3 });
    await signIn(w, 'demo');
    const first = Date.now() - 50 * 60_000;
    for (let i = 0; i < 7; i++)
      await w.ledger.recordCall({ account: 'demo', at: first + i * 60_000, kind: 'query', cls: 'interactive' });
    return { w, freesAt: first + 3600_000 };
  }

  it('waits for quota with the time it will go, never taking the interactive reserve', async () => {
    const { w, freesAt } = await hourUsedUp();
    const job = await jobFor(w, { 'date-from': '2026-10-01 00:00:00', 'date-to': '2026-10-02 00:00:00' });
    expect(await drive(w, job.id)).toBe('wait');
    const waiting = inEnglish((await w.store.getJob(job.id))!);
    expect(waiting.state).toBe('waiting');
    expect(waiting.waitingUntil).toBe(freesAt);
    expect(waiting.message).toMatch(/Waiting for quota until/);
    expect(waiting.callsSpent).toBe(0);
  });

  it('asks again about a wait for quota: restarted with larger limits, a job waiting for its hour goes at once', async () => {
    const { w: tight } = await hourUsedUp();
    const job = await jobFor(tight, { 'date-from': '2026-10-01 00:00:00', 'date-to': '2026-10-01 06:00:00' });
    expect(await drive(tight, job.id)).toBe('wait');
    const waiting = inEnglish((await tight.store.getJob(job.id))!);
    expect(waiting).toMatchObject({ state: 'waiting', waitingFor: 'quota' });
    expect(waiting.waitingUntil! - Date.now()).toBeGreaterThan(5 * 60_000);

    // The same store, started again with the limits raised: the stored time is not waited for.
    const roomy = await world({ durable: tight.durable });
    const runner = new ExportRunner(roomy.deps);
    runner.start();
    await waitFor(async () => (await roomy.store.getJob(job.id))!.state === 'done', 10_000);
    await runner.stop();
    expect((await roomy.store.getJob(job.id))!.countCheck).toMatchObject({ ok: true });
  });

  it('waits for a sign-in when no session of the API key is left, and goes on after one', async () => {
    const w = await world();
    const job = await jobFor(w, { 'date-from': '2026-10-01 00:00:00', 'date-to': '2026-10-02 00:00:00' });
    expect(await drive(w, job.id)).toBe('wait');
    expect(inEnglish((await w.store.getJob(job.id))!)).toMatchObject({
      state: 'waiting',
      waitingUntil: null,
      message: expect.stringMatching(/^Sign in again to continue/),
    });
    // Another session of the same API key (not the one that created the job) will do.
    await signIn(w, 'demo', 'another-session');
    expect(await drive(w, job.id)).toBe('stop');
    expect(inEnglish((await w.store.getJob(job.id))!).state).toBe('done');
  });

  it('retries a failing upstream with backoff, then succeeds', async () => {
    const w = await world();
    await signIn(w, 'demo');
    const job = await jobFor(w, { 'date-from': '2026-10-01 00:00:00', 'date-to': '2026-10-02 00:00:00' });
    sim.setFaults({ status: 503, count: 1 });
    try {
      expect(await drive(w, job.id)).toBe('wait');
    } finally {
      sim.clearFaults();
    }
    const waiting = inEnglish((await w.store.getJob(job.id))!);
    expect(waiting).toMatchObject({
      state: 'waiting',
      failures: 1,
      message: expect.stringMatching(/failed \(unavailable\); trying again/),
    });
    expect(waiting.waitingUntil! - Date.now()).toBeGreaterThan(20_000);
    // The wait is over (as the runner's timer would decide); the next step succeeds.
    expect(await drive(w, job.id)).toBe('stop');
    expect(inEnglish((await w.store.getJob(job.id))!)).toMatchObject({ state: 'done', failures: 0 });
  });

  it('fails with a clear message when the upstream refuses the query for good', async () => {
    const w = await world();
    await signIn(w, 'demo');
    // ent-sakura's key asking for another enterprise: the upstream answers 403.
    const job = await jobFor(w, {
      'date-from': '2026-10-01 00:00:00',
      'date-to': '2026-10-02 00:00:00',
      'enterprise-id': 'ent-fuji',
    });
    expect(await drive(w, job.id)).toBe('stop');
    expect(inEnglish((await w.store.getJob(job.id))!)).toMatchObject({
      state: 'failed',
      message: expect.stringMatching(/refused the query \(403\)/),
    });
  });

  it('stops a cancelled job at once and writes nothing', async () => {
    const w = await world();
    await signIn(w, 'demo');
    const job = await jobFor(w, { 'date-from': '2026-10-01 00:00:00', 'date-to': '2026-10-20 00:00:00' });
    expect((await runJobStep(w.deps, job.id)).next).toBe('continue');
    const j = inEnglish((await w.store.getJob(job.id))!);
    j.state = 'cancelled';
    await w.store.saveJob(j);
    expect((await runJobStep(w.deps, job.id)).next).toBe('stop');
    expect(await w.deps.files.size(job.id)).toBeNull();
  });

  it('stores a page whose call answered as the server was stopping, and does not pay for it again', async () => {
    const w = await world();
    await signIn(w, 'demo');
    const job = await jobFor(w, { 'date-from': '2026-10-01 00:00:00', 'date-to': '2026-10-03 00:00:00' });
    const calls = () => sim.stats().accounts.demo?.queryRequests ?? 0;
    const before = calls();
    // The stop comes while the call is out: the answer arrives after it.
    const stopping = new AbortController();
    const query = w.deps.gateway.query.bind(w.deps.gateway);
    const deps = {
      ...w.deps,
      gateway: {
        ...w.deps.gateway,
        limits: w.deps.gateway.limits,
        nextCallAt: w.deps.gateway.nextCallAt.bind(w.deps.gateway),
        query: async (...args: Parameters<typeof query>) => {
          const answer = await query(args[0], args[1], args[2]);
          stopping.abort(new Error('server stopping'));
          return answer;
        },
      },
    };
    expect((await runJobStep(deps, job.id, stopping.signal)).next).toBe('stop');
    const stopped = inEnglish((await w.store.getJob(job.id))!);
    expect([stopped.callsSpent, stopped.windows[0]!.pagesDone]).toEqual([1, 1]);
    expect(stopped.recordsFetched).toBeGreaterThan(0);
    // Started again: page 1 is not asked again.
    expect(await drive(w, job.id)).toBe('stop');
    const done = inEnglish((await w.store.getJob(job.id))!);
    expect(done.state).toBe('done');
    expect(calls() - before).toBe(done.callsSpent);
    expect(done.callsSpent).toBe(done.windows.reduce((sum, x) => sum + (x.pagesTotal ?? 0), 0));
  });

  it('writes an empty result as a header row only', async () => {
    const w = await world();
    await signIn(w, 'demo');
    const job = await jobFor(w, {
      'date-from': '2026-10-01 00:00:00',
      'date-to': '2026-10-02 00:00:00',
      da: '819999999999',
    });
    expect(await drive(w, job.id)).toBe('stop');
    const done = inEnglish((await w.store.getJob(job.id))!);
    expect(done).toMatchObject({ state: 'done', callsSpent: 1, countCheck: { expected: 0, written: 0, ok: true } });
    expect((await fileOf(w, job.id)).rows).toEqual([]);
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('an export under a moving upstream (a stub that changes its answer)', () => {
  type StubPage = { total: number; ids: string[] };
  /**
   * Pages of fake records with ids r0…, the total the stub claims, page by page; a list for a page
   * is what it answers the first, second… time that page is asked (the last one repeats).
   */
  function stubGateway(pages: (StubPage | StubPage[])[]) {
    let calls = 0;
    const asked = new Map<number, number>();
    return {
      calls: () => calls,
      limits: LIMITS_POLICY,
      nextCallAt: async () => ({ at: 0, limitedBy: null, scope: 'account' as const }),
      async query(_account: unknown, q: { page: number }) {
        calls += 1;
        const times = asked.get(q.page) ?? 0;
        asked.set(q.page, times + 1);
        const entry = pages[q.page - 1];
        const answers = entry === undefined ? [] : Array.isArray(entry) ? entry : [entry];
        const last = pages.at(-1)!;
        const p = answers[Math.min(times, answers.length - 1)] ?? {
          total: (Array.isArray(last) ? last.at(-1)! : last).total,
          ids: [],
        };
        const page = {
          page_size: 100,
          page: q.page,
          _links: {},
          _embedded: {
            total_found: p.total,
            cdrs: p.ids.map((trx_id) => ({ trx_id, date_received: '2026-10-01T00:00:00.000+0000' })),
          },
        } as never;
        return { page, calls: 1 };
      },
    };
  }
  const ids = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `r${from + i}`);

  it('says when the count moved, writes a shifted record once, and reports the difference', async () => {
    const w = await world();
    await signIn(w, 'demo');
    // The total drops from 250 to 240 after page 1, and page 2 repeats 10 records of page 1.
    const gateway = stubGateway([
      { total: 250, ids: ids(0, 100) },
      { total: 240, ids: ids(90, 190) },
      { total: 240, ids: ids(190, 230) },
    ]);
    const deps = { ...w.deps, gateway };
    const job = await jobFor(
      w,
      { 'date-from': '2026-10-01 00:00:00', 'date-to': '2026-10-02 00:00:00' },
      { columns: ['trx_id'] },
    );
    for (let i = 0; i < 10; i++) if ((await runJobStep(deps, job.id)).next !== 'continue') break;
    const done = inEnglish((await w.store.getJob(job.id))!);
    expect(done.state).toBe('done');
    expect(gateway.calls()).toBe(3);
    expect(done.duplicates).toBe(10);
    expect(done.countCheck).toEqual({ expected: 240, written: 230, duplicates: 10, difference: -10, ok: false });
    expect(done.warnings.join('\n')).toMatch(/count changed from 250 to 240/);
    expect(done.warnings.join('\n')).toMatch(/10 records came more than once/);
    expect(done.warnings.join('\n')).toMatch(/The file has 230 records, 10 fewer than the 240/);
    expect((await fileOf(w, job.id)).rows.map((r) => r[0])).toEqual(ids(0, 230));
  });

  it('ends a window at an empty page before the expected last one, asked again twice, and says so', async () => {
    const w = await world();
    await signIn(w, 'demo');
    const gateway = stubGateway([
      { total: 300, ids: ids(0, 100) },
      { total: 300, ids: [] },
    ]);
    const job = await jobFor(
      w,
      { 'date-from': '2026-10-01 00:00:00', 'date-to': '2026-10-02 00:00:00' },
      { columns: ['trx_id'] },
    );
    for (let i = 0; i < 10; i++) if ((await runJobStep({ ...w.deps, gateway }, job.id)).next !== 'continue') break;
    const done = inEnglish((await w.store.getJob(job.id))!);
    expect(gateway.calls()).toBe(4);
    expect(done.callsSpent).toBe(4);
    expect(done.warnings.join('\n')).toMatch(
      /page 2 held 0 records where its own count \(300\) promises 100, asked 3 times; kept as sent/,
    );
    expect(done.warnings.join('\n')).toMatch(/empty page 2 of 3/);
    expect(done.countCheck).toMatchObject({ expected: 300, written: 100, ok: false });
    // The whole page is the dashboard's too; the one kept as sent is the export's alone.
    const key = windowBase(done, done.windows[0]!).key;
    expect(await w.cache.getPage('demo', key, done.query.sortOrder, 1)).toMatchObject({ page: 1 });
    expect(await w.cache.getPage('demo', key, done.query.sortOrder, 2)).toBeNull();
  });

  it('asks a page that came short or with a record twice again, and keeps the whole one', async () => {
    const w = await world();
    await signIn(w, 'demo');
    const gateway = stubGateway([
      { total: 250, ids: ids(0, 100) },
      [
        { total: 250, ids: ids(100, 195) },
        { total: 250, ids: [...ids(100, 199), 'r100'] },
        { total: 250, ids: ids(100, 200) },
      ],
      { total: 250, ids: ids(200, 250) },
    ]);
    const job = await jobFor(
      w,
      { 'date-from': '2026-10-01 00:00:00', 'date-to': '2026-10-02 00:00:00' },
      { columns: ['trx_id'] },
    );
    for (let i = 0; i < 10; i++) if ((await runJobStep({ ...w.deps, gateway }, job.id)).next !== 'continue') break;
    const done = inEnglish((await w.store.getJob(job.id))!);
    expect(done.state).toBe('done');
    // Page 2 three times (short, then a record twice, then whole): every call counted.
    expect(gateway.calls()).toBe(5);
    expect(done.callsSpent).toBe(5);
    expect(done.duplicates).toBe(0);
    expect(done.countCheck).toMatchObject({ expected: 250, written: 250, ok: true });
    expect(done.warnings).toEqual([]);
    expect((await fileOf(w, job.id)).rows.map((r) => r[0])).toEqual(ids(0, 250));
  });

  it('counts a page asked again once when the store wrote it but its answer was lost', async () => {
    const w = await world();
    await signIn(w, 'demo');
    const gateway = stubGateway([
      [
        { total: 150, ids: ids(0, 90) },
        { total: 150, ids: ids(0, 100) },
      ],
      { total: 150, ids: ids(100, 150) },
    ]);
    const job = await jobFor(
      w,
      { 'date-from': '2026-10-01 00:00:00', 'date-to': '2026-10-02 00:00:00' },
      { columns: ['trx_id'] },
    );
    // The short page's reread is written, then the connection drops before the answer comes back.
    const store = w.deps.store;
    let lost = false;
    const flaky = {
      ...store,
      saveJob: async (j: ExportJobRecord) => {
        await store.saveJob(j);
        if ((j.rereads ?? 0) > 0 && !lost) {
          lost = true;
          throw Object.assign(new Error('Connection terminated unexpectedly'), { code: '57P01' });
        }
      },
    };
    for (let i = 0; i < 10; i++)
      if ((await runJobStep({ ...w.deps, store: flaky, gateway }, job.id)).next !== 'continue') break;
    expect(lost).toBe(true);
    const done = inEnglish((await w.store.getJob(job.id))!);
    expect(done.state).toBe('done');
    expect(gateway.calls()).toBe(3);
    expect(done.callsSpent).toBe(3);
    expect((await fileOf(w, job.id)).rows.map((r) => r[0])).toEqual(ids(0, 150));
  });
});

describe('retention', () => {
  it('deletes finished exports and their files once their time is up', async () => {
    const w = await world();
    await signIn(w, 'demo');
    const job = await jobFor(w, { 'date-from': '2026-10-01 00:00:00', 'date-to': '2026-10-01 06:00:00' });
    expect(await drive(w, job.id)).toBe('stop');
    expect(await w.deps.files.size(job.id)).toBeGreaterThan(0);
    const done = inEnglish((await w.store.getJob(job.id))!);
    // Seven days later (EXPORT_RETENTION_DAYS), the runner's first look prunes it.
    const later = done.expiresAt! + 1;
    const runner = new ExportRunner({ ...w.deps, now: () => later });
    runner.start();
    await waitFor(async () => (await w.store.getJob(job.id)) === null);
    await runner.stop();
    expect(await w.deps.files.size(job.id)).toBeNull();
  });
});

describe('a stored secret that cannot be opened', () => {
  it('waits for a new sign-in instead of trying the same session again and again', async () => {
    const w = await world();
    await signIn(w, 'demo');
    const deps = { ...w.deps, secretOf: () => null };
    const job = await jobFor(w, { 'date-from': '2026-10-01 00:00:00', 'date-to': '2026-10-02 00:00:00' });
    expect(await drive({ ...w, deps }, job.id)).toBe('wait');
    const waiting = inEnglish((await w.store.getJob(job.id))!);
    expect(waiting).toMatchObject({
      state: 'waiting',
      waitingUntil: null,
      message: expect.stringContaining('cannot be opened'),
    });
    // The session that failed no longer counts; one signed in later does.
    expect(
      await w.vault.liveSession('demo', Date.now(), {
        preferSid: waiting.sid,
        createdAfter: waiting.signInNeededSince,
      }),
    ).toBeNull();
    await new Promise((r) => setTimeout(r, 5));
    await signIn(w, 'demo', 'fresh-session');
    expect(await drive(w, job.id)).toBe('stop');
    expect(inEnglish((await w.store.getJob(job.id))!).state).toBe('done');
  });
});

describe('exports over the local history', () => {
  beforeEach(() => sim.resetStats());
  const demo = CREDENTIALS.find((c) => c.apiKey === 'demo')!;
  const queryCalls = () => sim.stats().accounts.demo?.queryRequests ?? 0;

  /** A store whose copy of demo's account holds 2026-10-01 … 2026-10-10 complete. */
  async function heldWorld(): Promise<World> {
    const w = await world();
    await signIn(w, 'demo');
    await loadHistoryFixture(w.durable.history, sim.dataset, {
      scope: scopeOf({ apiKey: 'demo', enterpriseId: null }).key,
      enterpriseId: demo.enterpriseId,
      fromDay: '2026-10-01',
      toDay: '2026-10-10',
    });
    return w;
  }

  it('reads a range of complete days from the local history: no call, the file the upstream would give', async () => {
    const w = await heldWorld();
    const job = await jobFor(w, {
      'date-from': '2026-10-02 00:00:00',
      'date-to': '2026-10-05 00:00:00',
      'sort-order': 'asc',
    });
    expect(await drive(w, job.id)).toBe('stop');
    const done = inEnglish((await w.store.getJob(job.id))!);
    const expected = expectedIds('demo', '2026-10-02 00:00:00', '2026-10-05 00:00:00', 'UTC', 'asc');
    expect((await fileOf(w, job.id)).rows.map((r) => r[0])).toEqual(expected);
    expect(done).toMatchObject({
      state: 'done',
      callsSpent: 0,
      localRecords: expected.length,
      countCheck: { ok: true },
    });
    expect(queryCalls()).toBe(0);
  });

  it('reads the held part of a window locally and only the rest upstream, every record once, in order', async () => {
    const w = await heldWorld();
    const job = await jobFor(w, {
      'date-from': '2026-10-08 06:00:00',
      'date-to': '2026-10-14 00:00:00',
      'sort-order': 'desc',
    });
    expect(await drive(w, job.id)).toBe('stop');
    const done = inEnglish((await w.store.getJob(job.id))!);
    const expected = expectedIds('demo', '2026-10-08 06:00:00', '2026-10-14 00:00:00', 'UTC', 'desc');
    expect((await fileOf(w, job.id)).rows.map((r) => r[0])).toEqual(expected);
    const upstreamPart = expectedIds('demo', '2026-10-11 00:00:00', '2026-10-14 00:00:00', 'UTC', 'desc');
    // Only the days not held were paid for, one call per page of them.
    expect(done.callsSpent).toBe(Math.ceil(upstreamPart.length / 100));
    expect(queryCalls()).toBe(done.callsSpent);
    expect(done.localRecords).toBe(expected.length - upstreamPart.length);
    expect(done.countCheck).toMatchObject({ ok: true, written: expected.length });
  });

  it('answers free text over the held days in the asked order, and names the days it could not search', async () => {
    const w = await heldWorld();
    const columns: CdrFieldKey[] = ['trx_id', 'price', 'message_body', 'date_received'];
    const job = await jobFor(
      w,
      {
        'date-from': '2026-10-06 00:00:00',
        'date-to': '2026-10-15 00:00:00',
        q: 'sakura',
        sort: 'price',
        'sort-order': 'desc',
      },
      { columns },
    );
    expect(await drive(w, job.id)).toBe('stop');
    const done = inEnglish((await w.store.getJob(job.id))!);
    expect(done).toMatchObject({ state: 'done', callsSpent: 0 });
    expect(done.warnings.join(' ')).toContain('Not searched (not synced yet): 2026-10-11 00:00:00');
    // What the simulator holds of those days that mentions "sakura" in a searched field.
    const from = Date.UTC(2026, 9, 6);
    const to = Date.UTC(2026, 9, 11);
    const page = sim.dataset.query({
      from,
      to,
      now: NOW,
      enterpriseId: demo.enterpriseId,
      order: 'asc',
      offset: 0,
      limit: 1_000_000,
    });
    const matching = page.indices
      .map((i) => sim.dataset.recordAt(i, 'UTC') as unknown as Cdr)
      .filter((c) => recordColumns(c)!.search_text.includes('sakura'));
    expect(matching.length).toBeGreaterThan(0);
    const { rows } = await fileOf(w, job.id);
    expect(new Set(rows.map((r) => r[0]))).toEqual(new Set(matching.map((c) => c.trx_id)));
    const prices = rows.map((r) => Number(r[1]));
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
    expect(queryCalls()).toBe(0);
  });

  it('estimates from the local history: exact counts and no call for what it holds', async () => {
    const w = await heldWorld();
    const estimate = async (body: Record<string, unknown>) => {
      const parsed = parseExportRequest(body);
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
      const frozen = freezeRange(parsed.request.query, NOW);
      if (!frozen.ok) throw new Error(translate('en', frozen.error));
      const deps = { gateway: w.gateway, cache: w.cache, local: w.deps.local, now: () => NOW, pageSize: 100 };
      return estimateExport(deps, {
        account: { apiKey: 'demo', enterpriseId: null },
        frozen: frozen.frozen,
        columns: COLUMNS,
        fileName: 'f.csv',
        callsAhead: 0,
      });
    };
    const held = await estimate({ 'date-from': '2026-10-02 00:00:00', 'date-to': '2026-10-05 00:00:00' });
    expect(held).toMatchObject({
      calls: 0,
      recordsKnown: 'exact',
      records: expectedIds('demo', '2026-10-02 00:00:00', '2026-10-05 00:00:00', 'UTC', 'desc').length,
    });
    // Days 11–13 are not held and the cache knows nothing of them: one call at least, size unknown.
    const part = await estimate({ 'date-from': '2026-10-08 00:00:00', 'date-to': '2026-10-14 00:00:00' });
    expect(part).toMatchObject({ calls: 1, windowsUnknown: 1, recordsKnown: 'unknown' });
    const text = await estimate({ 'date-from': '2026-10-06 00:00:00', 'date-to': '2026-10-15 00:00:00', q: 'sakura' });
    expect(text.calls).toBe(0);
    expect(text.records).toBeGreaterThan(0);
    expect(text.warnings.map((w) => translate('en', w)).join(' ')).toContain('Not searched (not synced yet)');
    expect(queryCalls()).toBe(0);
  });

  it('refuses free text over a range with no copied day, saying how to get one', async () => {
    const w = await heldWorld();
    const job = await jobFor(w, { 'date-from': '2026-10-12 00:00:00', 'date-to': '2026-10-14 00:00:00', q: 'sakura' });
    expect(await drive(w, job.id)).toBe('stop');
    const done = inEnglish((await w.store.getJob(job.id))!);
    expect(done.state).toBe('failed');
    expect(done.message).toContain('Start the local history on the History page');
    expect(queryCalls()).toBe(0);
  });
});
