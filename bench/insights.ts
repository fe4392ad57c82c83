/**
 * `npm run bench:insights`: how fast Insights answers over a month of a busy account's local
 * history — 31 complete days holding about 1,000,000 records (the support key's scope over the
 * simulator's three enterprises at 33,000 messages a day) in the SQLite store.
 *
 * The copy is filled straight from the simulator's records (tests/support/history-fixture.ts: what
 * a finished sync leaves, rollups included, through the same store writes), then
 * InsightsService.get — exactly what GET /api/insights runs, without HTTP and JSON — is timed for
 * the whole 31-day range: without a filter (UTC and JST days), with filters the rollups answer
 * (network; status and sender; API key), and with filters only the records answer (free text,
 * latency). Computed: every run computes afresh (the answers kept are forgotten first); kept: the
 * same query again, answered from the answers kept (complete days never change). p50/p95/max over
 * BENCH_RUNS runs each; the target is p95 < 300 ms.
 *
 *   npm run bench:insights     (BENCH_RUNS=20; BENCH_DATA_DIR=<folder> keeps the loaded copy there
 *                               and reuses it next time: loading takes several minutes)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configSchema } from '../lib/config';
import { HistoryIndex } from '../lib/history/history-index';
import { addDays, dayOf } from '../lib/history/days';
import { scopeOf } from '../lib/history/scope';
import { InsightsService } from '../lib/insights/insights-service';
import { cachePolicy } from '../lib/cache/cache-policy';
import { openStore } from '../lib/root/open-store';
import { historyFileOf } from '../lib/db/history-file';
import { sqliteFileOf } from '../lib/db/sqlite-file';
import { startSimulator } from '../simulator/server';
import { loadHistoryFixture } from '../tests/support/history-fixture';
import { searchQuery } from '../tests/support/parsed';

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const PER_DAY = 33_000;
const DAYS = 31;
/** A fixed clock: the same data every run, and a reused folder holds the same days. */
const NOW = Date.parse('2026-11-21T12:00:00Z');
const ACCOUNT = { apiKey: 'support', enterpriseId: null };

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function main(): Promise<void> {
  const keep = process.env.BENCH_DATA_DIR;
  const dataDir = keep ? path.resolve(keep) : fs.mkdtempSync(path.join(os.tmpdir(), 'bench-insights-'));
  const config = { ...configSchema.parse({ DATA_DIR: dataDir, LOG_LEVEL: 'error' }), dataDir };
  const store = await openStore(config);
  const scope = scopeOf(ACCOUNT).key;
  const lastDay = addDays(dayOf(NOW), -2);
  const firstDay = addDays(lastDay, -(DAYS - 1));
  try {
    const held = await store.history.completeDays(scope, firstDay, lastDay);
    if (held.length < DAYS) {
      const sim = await startSimulator({
        port: 0,
        days: DAYS + 4,
        perDay: PER_DAY,
        limits: false,
        quiet: true,
        now: () => NOW,
      });
      const t0 = performance.now();
      await loadHistoryFixture(store.history, sim.dataset, {
        scope,
        enterpriseId: null,
        fromDay: firstDay,
        toDay: lastDay,
        progress: (day, records) =>
          process.stdout.write(`\rloading the local history: ${day}, ${records.toLocaleString('en-US')} records`),
      });
      console.log(`\nloaded in ${((performance.now() - t0) / 1000).toFixed(0)} s (records, rollups, text index)`);
      await sim.close();
    }
    const { records } = await store.history.size(scope);
    // Both files and their logs: the local history's data is in a file of its own (lib/db/history-file.ts).
    const files = [sqliteFileOf(dataDir), historyFileOf(dataDir)].flatMap((f) => [f, `${f}-wal`]);
    const bytes = files.reduce((s, f) => s + (fs.existsSync(f) ? fs.statSync(f).size : 0), 0);
    const rollups = await store.db
      .selectFrom('history_rollups_daily')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('scope', '=', scope)
      .executeTakeFirstOrThrow();
    const hourly = await store.db
      .selectFrom('history_rollups_hourly')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('scope', '=', scope)
      .executeTakeFirstOrThrow();
    const facets = await store.db
      .selectFrom('history_rollups_facets')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('scope', '=', scope)
      .executeTakeFirstOrThrow();
    console.log(
      `local history: ${records.toLocaleString('en-US')} records in ${DAYS} complete days (${firstDay} – ${lastDay}), ${(bytes / 1e9).toFixed(2)} GB on disk`,
    );
    console.log(
      `rollups: ${Number(hourly.n).toLocaleString('en-US')} hourly rows; ${Number(rollups.n).toLocaleString('en-US')} daily and ${Number(facets.n).toLocaleString('en-US')} facet rows (both zones)`,
    );

    const insights = new InsightsService({
      history: store.history,
      insights: store.insights,
      index: new HistoryIndex(store.history, () => NOW),
      policy: cachePolicy(config),
      now: () => NOW,
    });
    const range = { 'date-from': `${firstDay} 00:00:00`, 'date-to': `${lastDay} 23:59:59` };
    const jst = { 'date-from': `${firstDay} 09:00:00`, 'date-to': `${addDays(lastDay, 1)} 08:59:59`, tz: 'JST' };
    const cases: [string, Record<string, string>][] = [
      ['no filter, UTC days', { ...range, tz: 'UTC' }],
      ['no filter, JST days', jst],
      ['network=44010', { ...range, tz: 'UTC', network: '44010' }],
      ['status=DELIVRD & oa=SakuraMart', { ...range, tz: 'UTC', status: 'DELIVRD', oa: 'SakuraMart' }],
      ['api-key=fuji-tracking, JST', { ...jst, 'api-key': 'fuji-tracking' }],
      ['q=sakura (free text)', { ...range, tz: 'UTC', q: 'sakura' }],
      ['latency-min=60', { ...range, tz: 'UTC', 'latency-min': '60' }],
    ];
    console.log(`\nInsightsService.get over ${DAYS} days, ${RUNS} runs each (after one warm-up):`);
    console.log(
      `${'query'.padEnd(34)} ${'records'.padStart(10)}  ${'from'.padEnd(8)} ${'computed: p50'.padStart(14)} ${'p95'.padStart(8)} ${'max'.padStart(8)}   ${'kept: p95'.padStart(9)}`,
    );
    const ms = (v: number) => `${v.toFixed(0)} ms`.padStart(8);
    for (const [name, params] of cases) {
      const query = searchQuery(params);
      const answer = await insights.get(ACCOUNT, query);
      const slow = answer._meta.computedFrom === 'records';
      const runs = RUNS;
      const time = async (fresh: boolean) => {
        const times: number[] = [];
        for (let i = 0; i < runs; i++) {
          if (fresh) insights.forgetAnswers();
          const t = performance.now();
          await insights.get(ACCOUNT, query);
          times.push(performance.now() - t);
        }
        return times.sort((a, b) => a - b);
      };
      const computed = await time(true);
      const kept = await time(false);
      console.log(
        `${name.padEnd(34)} ${answer.total.toLocaleString('en-US').padStart(10)}  ${answer._meta.computedFrom.padEnd(8)} ${ms(percentile(computed, 50)).padStart(14)} ${ms(percentile(computed, 95))} ${ms(computed[computed.length - 1]!)}   ${ms(percentile(kept, 95)).padStart(9)}${slow ? '  (sums every matching record)' : ''}`,
      );
    }
    console.log(
      `\nmachine: ${os.cpus().length} cores, load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
  } finally {
    await store.close();
    if (!keep) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
