/**
 * bench/reconcile: what a reconciliation of 10,000 trx_ids spread over 14 days costs (2% of them
 * unknown to the upstream, 1% listed twice), through the composition root's real services
 * (lib/root/services.ts: client, governor, SQLite store, runner) against the simulator over HTTP.
 *  1. Without the local history: the plan before any call, then the calls the run spends (the
 *     simulator counts them) against the calls one lookup per row would need. Limits raised, so
 *     the run takes seconds; the calls are what they would be at 3/min, 10/h, 100/day.
 *  2. From a complete local history (the 14 days loaded straight from the simulator's records, as a
 *     finished copy leaves them): the time from the uploaded CSV (a multipart body, read as POST
 *     /api/reconciliations reads it) to every row answered, and the calls it spends. Target: under
 *     2 s, 0 calls. BENCH_RUNS runs (3).
 * Every answer is checked against the simulator's records.
 *
 *   npm run bench:reconcile      (DATABASE_URL=postgres://… runs it on PostgreSQL)
 */
import { startHarness, type Harness } from '../tests/support/service-harness';
import { loadHistoryFixture } from '../tests/support/history-fixture';
import { authSecret } from '../lib/auth/auth-secret';
import { seal } from '../lib/auth/secret-box';
import { addDays, dayOf } from '../lib/history/days';
import { scopeOf } from '../lib/history/scope';
import { DAY_MS } from '../lib/time/units';
import { formatWallClock } from '../lib/time/zones';
import { readReconcileRequest } from '../lib/reconcile/reconcile-request';
import type { Reconciliation } from '../lib/reconcile/api';
import { configSchema } from '../lib/config';
import { backgroundRate, upstreamLimits } from '../lib/governor/server';

const ROWS = 10_000;
const DAYS = 14;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const TARGET_MS = 2_000;
const ROOMY = {
  UPSTREAM_LIMIT_PER_MINUTE: '100000',
  UPSTREAM_LIMIT_PER_HOUR: '1000000',
  UPSTREAM_LIMIT_PER_DAY: '10000000',
  UPSTREAM_BACKGROUND_RESERVE: '0',
  LOG_LEVEL: 'error',
};
const fmt = (n: number) => n.toLocaleString('en-US');
const NOW = Date.now();
/** 14 whole UTC days ending three days ago (settled). */
const FROM = Math.floor((NOW - (DAYS + 3) * DAY_MS) / DAY_MS) * DAY_MS;
const TO = FROM + DAYS * DAY_MS;

interface TheList {
  csv: string;
  known: Map<string, string>;
  unknown: number;
  repeated: number;
}

/** 10,000 rows: 97% distinct trx_ids of the simulator in the 14 days, 2% ids it never issued, 1% repeats. */
function theList(h: Harness): TheList {
  const all = h.sim.dataset.query({
    from: FROM,
    to: TO - 1,
    enterpriseId: 'ent-sakura',
    order: 'asc',
    offset: 0,
    limit: 1e7,
  });
  const unknown = Math.round(ROWS * 0.02);
  const repeated = Math.round(ROWS * 0.01);
  const distinct = ROWS - unknown - repeated;
  if (all.indices.length < distinct) throw new Error(`the simulator holds only ${all.indices.length} records`);
  const step = all.indices.length / distinct;
  const ids = Array.from({ length: distinct }, (_, i) => h.sim.dataset.trxIdAt(all.indices[Math.floor(i * step)]!));
  const known = new Map(ids.map((id) => [id, id]));
  const fake = Array.from({ length: unknown }, (_, i) => `ffff${String(i).padStart(28, '0')}`);
  const rows = [...ids, ...fake, ...ids.slice(0, repeated)];
  // Spread as a real log would be: not sorted.
  for (let i = rows.length - 1; i > 0; i--) {
    const j = (i * 7919) % (i + 1);
    [rows[i], rows[j]] = [rows[j]!, rows[i]!];
  }
  return { csv: ['trx_id', ...rows].join('\r\n'), known, unknown, repeated };
}

function uploadRequest(csv: string): Request {
  const body = new FormData();
  body.set('file', new Blob([csv]), 'campaign.csv');
  body.set('date-from', formatWallClock(new Date(FROM), 'UTC'));
  body.set('date-to', formatWallClock(new Date(TO), 'UTC'));
  body.set('tz', 'UTC');
  return new Request('http://bench.local/api/reconciliations', { method: 'POST', body });
}

async function untilOver(h: Harness, account: Parameters<Harness['reconciliations']['get']>[0], id: string) {
  for (;;) {
    const r = await h.reconciliations.get(account, id);
    if (r.state === 'done' || r.state === 'failed') return r;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Every matched row holds the simulator's record of its id; the unknown ids are not found. */
async function check(
  h: Harness,
  account: Parameters<Harness['reconciliations']['get']>[0],
  r: Reconciliation,
  list: TheList,
) {
  const { outcomes } = r.summary;
  if (outcomes.matched !== ROWS - list.unknown || outcomes.not_found !== list.unknown || outcomes.several !== 0)
    throw new Error(`wrong answer: ${JSON.stringify(outcomes)}`);
  for (let page = 1; ; page++) {
    const got = await h.reconciliations.rows(account, r.id, {
      outcome: 'matched',
      status: null,
      page,
      pageSize: 500,
      tz: null,
    });
    for (const row of got.rows) {
      const record = row.records[0]!;
      const index = h.sim.dataset.findByTrxId(record.trx_id);
      const sim =
        index === undefined ? null : (h.sim.dataset.recordAt(index, 'UTC') as unknown as Record<string, unknown>);
      if (
        !sim ||
        row.value !== record.trx_id ||
        sim.delivery_status !== record.delivery_status ||
        sim.price !== record.price
      )
        throw new Error(`row ${row.row} does not hold the simulator's record of ${row.value}`);
    }
    if (page * 500 >= got.total) return;
  }
}

/** Background calls a day and an hour at the upstream's real limits (3/min, 10/h, 100/day, 3 kept for people). */
function realRate(): { perDay: number; perHour: number } {
  const config = { ...configSchema.parse({ DATA_DIR: '/nonexistent' }), dataDir: '/nonexistent' };
  return backgroundRate(upstreamLimits(config), 'export');
}

async function main(): Promise<void> {
  // The benchmark's figures, not the services' info lines (the logger reads the level at each line).
  process.env.LOG_LEVEL = 'error';
  const h = await startHarness({
    sim: { perDay: 3000, days: DAYS + 6, seed: 36 },
    env: { ...ROOMY, ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}) },
  });
  try {
    await h.store.vault.put({
      sid: 'sid-bench',
      apiKey: 'demo',
      enterpriseId: null,
      sealedSecret: seal('demo-secret', authSecret()),
      createdAt: NOW,
      expiresAt: NOW + 6 * 3600_000,
    });
    const account = { ...h.account('demo'), sid: 'sid-bench' };
    const list = theList(h);
    console.log(
      `bench:reconcile — ${fmt(ROWS)} trx_ids over ${DAYS} days (${fmt(list.unknown)} unknown, ${fmt(list.repeated)} repeated), ${process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite'}`,
    );

    // 1. Without the local history.
    h.reconcileRunner.start();
    const before = h.upstreamCalls('demo');
    const made = await h.reconciliations.create(account, await readReconcileRequest(uploadRequest(list.csv)));
    const p = made.plan;
    console.log('\n1. Without the local history');
    console.log(
      `   plan before any call: ${fmt(p.calls)} call${p.calls === 1 ? '' : 's'} (${p.callsKnown}), at most ${fmt(p.callsAtMost)}; ${p.windows.length} window${p.windows.length === 1 ? '' : 's'} (${p.windows.map((w) => w.strategy).join(', ')})`,
    );
    await h.reconciliations.start(account, made.id);
    const t0 = performance.now();
    const run = await untilOver(h, account, made.id);
    const spent = h.upstreamCalls('demo') - before;
    await check(h, account, run, list);
    const records = h.sim.dataset.query({ from: FROM, to: TO, enterpriseId: 'ent-sakura', limit: 0 }).total;
    console.log(
      `   spent: ${fmt(spent)} calls (the job counted ${fmt(run.progress.callsSpent)}; the window's ${fmt(records)} records at ${p.pageSize} a page), ${((performance.now() - t0) / 1000).toFixed(1)} s with the limits raised`,
    );
    console.log(`   one lookup per row: ${fmt(ROWS)} calls  →  ${(ROWS / spent).toFixed(0)}× more`);
    const real = realRate();
    console.log(
      `   at the real limits (${real.perHour} background calls an hour, ${real.perDay} a day): ${fmt(spent)} calls ≈ ${(spent / real.perDay).toFixed(1)} days; one lookup per row ≈ ${fmt(Math.ceil(ROWS / real.perDay))} days`,
    );
    await h.reconciliations.forget(account, made.id);

    // 2. From a complete local history.
    const t1 = performance.now();
    await loadHistoryFixture(h.store.history, h.sim.dataset, {
      scope: scopeOf({ apiKey: 'demo', enterpriseId: 'ent-sakura' }).key,
      enterpriseId: 'ent-sakura',
      fromDay: addDays(dayOf(FROM), -1),
      toDay: dayOf(TO),
    });
    await h.store.history.settled();
    console.log(
      `\n2. From a complete local history (${DAYS + 2} days loaded in ${((performance.now() - t1) / 1000).toFixed(1)} s)`,
    );
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const calls = h.upstreamCalls('demo');
      const started = performance.now();
      const created = await h.reconciliations.create(account, await readReconcileRequest(uploadRequest(list.csv)));
      const ms = performance.now() - started;
      const r = await h.reconciliations.get(account, created.id);
      if (r.state !== 'done') throw new Error(`not answered at once: ${r.state}`);
      await check(h, account, r, list);
      const spentHere = h.upstreamCalls('demo') - calls;
      times.push(ms);
      console.log(
        `   run ${i + 1}: every row answered in ${fmt(Math.round(ms))} ms, ${spentHere} calls (plan: ${r.plan.local} rows local, ${r.plan.calls} calls)`,
      );
      await h.reconciliations.forget(account, created.id);
    }
    const worst = Math.max(...times);
    console.log(
      `   worst ${fmt(Math.round(worst))} ms, target < ${fmt(TARGET_MS)} ms, 0 calls: ${worst < TARGET_MS ? 'met' : 'NOT MET'}`,
    );
  } finally {
    await h.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
