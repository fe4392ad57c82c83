/**
 * bench:history, parts 3 and 4: a year of a busy account in the local history, on SQLite or
 * PostgreSQL. The sync is filled straight from the simulator's records (tests/support/
 * history-fixture.ts: what a finished sync leaves, through the store's own writes: records, text
 * index, rollups, day packs), every day complete; then:
 *  - disk bytes per record (SQLite: both files and their logs; PostgreSQL: the history's tables
 *    and indexes, for information);
 *  - p95 of the searches a person runs: two filters, free text and another column's order, each
 *    at page 1 and page 1000 (of 25), over the last 31 days (through the planner, as GET
 *    /api/transactions asks) and over the whole 365 (the store's search: what a year's export
 *    or Insights reads; a person's search spans 31 days at most), and a few more over 31 days;
 *  - p95 of Insights over 31 days, computed afresh each time.
 * Each case runs 20 times, after one run not counted (it reads the store's pages into memory).
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { historyFileOf } from '../../lib/db/history-file';
import { sqliteFileOf } from '../../lib/db/sqlite-file';
import { addDays, lastSettledDay, startOf } from '../../lib/history/days';
import { localSearchOf } from '../../lib/history/local-query';
import { scopeOf } from '../../lib/history/scope';
import { EXPORT_MAX_RANGE_DAYS, parseQuery, type TransactionsQuery } from '../../lib/query/query';
import { DAY_MS } from '../../lib/time/units';
import { startHarness, type Harness } from '../../tests/support/service-harness';
import { loadHistoryFixture } from '../../tests/support/history-fixture';
import { fmt, percentile, verdict } from './figures';

const RUNS = 20;
const ROOMY = {
  UPSTREAM_LIMIT_PER_MINUTE: '100000',
  UPSTREAM_LIMIT_PER_HOUR: '1000000',
  UPSTREAM_LIMIT_PER_DAY: '10000000',
  LOG_LEVEL: 'error',
};
/** A fixed clock: the same records every run, so a kept data folder (--data) is reused as it is. */
export const SCALE_NOW = Date.parse('2026-12-01T12:00:00Z');
/** The key that reads every enterprise: the simulator's three in one scope. */
const ACCOUNT = { apiKey: 'support', enterpriseId: null };
/** A word of about a quarter of the messages (an order confirmation): tens of thousands a month. */
const WORD = 'ご注文';

export interface ScaleOptions {
  backend: 'sqlite' | 'postgres';
  records: number;
  days: number;
  /** p95 target of every search and Insights case, ms. */
  targetMs: number;
  /** SQLite: a data folder kept between runs (loaded once). */
  dataDir?: string;
  /** PostgreSQL: the database. */
  databaseUrl?: string;
  /** SQLite: the bytes a record may take on disk. */
  bytesTarget?: number;
}

interface Case {
  name: string;
  days: 31 | 365;
  params: (i: number) => Record<string, string>;
}

function queryOf(params: Record<string, string>): TransactionsQuery {
  const r = parseQuery(params, { maxRangeDays: EXPORT_MAX_RANGE_DAYS });
  if (!r.ok) throw new Error(`bad query ${JSON.stringify(params)}: ${JSON.stringify(r.errors)}`);
  return r.query;
}

/** Loads the year unless the store holds it already (a kept folder or database). */
async function loaded(h: Harness, scope: string, first: string, last: string, days: number): Promise<number> {
  const held = await h.store.history.completeDays(scope, first, last);
  if (held.length === days) return 0;
  const started = performance.now();
  await loadHistoryFixture(h.store.history, h.sim.dataset, {
    scope,
    enterpriseId: null,
    fromDay: first,
    toDay: last,
    progress: (day, records) => {
      const line = `  loading ${day}: ${fmt(records)} records, ${fmt((performance.now() - started) / 1000)} s`;
      // On a terminal one line rewritten; in a log, a line a month (a log of 365 rewrites is unreadable).
      if (process.stderr.isTTY) process.stderr.write(`\r${line}`);
      else if (day.endsWith('-01')) process.stderr.write(`${line}\n`);
    },
  });
  // Searched once the writer is done: the text index caught up, every day's pack built.
  await h.store.history.settled();
  if (process.stderr.isTTY) process.stderr.write('\n');
  return performance.now() - started;
}

/** SQLite: each table's and index's share of the history file, the largest first. */
function breakdown(dataDir: string, records: number): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Database = require('better-sqlite3') as typeof import('better-sqlite3');
  const db = new Database(historyFileOf(dataDir), { readonly: true });
  try {
    const rows = db
      .prepare(
        `select case when name glob 'history_text_[0-9]*' then 'text index (' || substr(name, length(rtrim(name, '_abcdefghijklmnopqrstuvwxyz')) + 1) || ')' else name end as part,
         sum(pgsize) as bytes from dbstat group by 1 order by bytes desc`,
      )
      .all() as { part: string; bytes: number }[];
    return rows
      .filter((r) => r.bytes / records >= 5)
      .map((r) => `${r.part.replace(/^history_/, '')} ${fmt(r.bytes / records)}`)
      .join(', ');
  } finally {
    db.close();
  }
}

async function diskBytes(h: Harness, o: ScaleOptions): Promise<number> {
  if (o.backend === 'sqlite') {
    const files = [sqliteFileOf(h.config.dataDir), historyFileOf(h.config.dataDir)].flatMap((f) => [f, `${f}-wal`]);
    return files.reduce((sum, f) => sum + (fs.existsSync(f) ? fs.statSync(f).size : 0), 0);
  }
  const { rows } = await sql<{ bytes: string }>`select sum(pg_total_relation_size(c.oid)) as bytes from pg_class c
    join pg_namespace n on n.oid = c.relnamespace where n.nspname = current_schema() and c.relkind in ('r', 'm')
    and c.relname like 'history%'`.execute(h.store.db);
  return Number(rows[0]?.bytes ?? 0);
}

/** The figures that missed their target, by name (none: every target met). */
export async function searchesAtScale(o: ScaleOptions): Promise<{ missed: string[] }> {
  const perDay = Math.ceil(o.records / o.days);
  const h = await startHarness({
    sim: { perDay, days: o.days + 4, seed: 3, limits: false, quiet: true, now: () => SCALE_NOW },
    env: { ...ROOMY, ...(o.databaseUrl ? { DATABASE_URL: o.databaseUrl } : {}) },
    ...(o.dataDir ? { dataDir: path.resolve(o.dataDir) } : {}),
    now: () => SCALE_NOW,
  });
  const missed: string[] = [];
  try {
    const account = h.account(ACCOUNT.apiKey, ACCOUNT.enterpriseId);
    const scope = scopeOf(account).key;
    const lastDay = lastSettledDay(h.policy.settledBefore(SCALE_NOW));
    const firstDay = addDays(lastDay, -(o.days - 1));
    const loadMs = await loaded(h, scope, firstDay, lastDay, o.days);
    const { records } = await h.store.history.size(scope);
    const bytes = await diskBytes(h, o);
    const label = o.backend === 'sqlite' ? 'SQLite' : 'PostgreSQL (pg_trgm)';
    console.log(
      `${label}: ${fmt(records)} local records over ${o.days} complete days (${firstDay} – ${lastDay}, about ${fmt(perDay)} a day)${loadMs > 0 ? `, loaded in ${fmt(loadMs / 1000)} s (${fmt(records / (loadMs / 1000))} records a second)` : ', loaded before'}`,
    );
    const perRecord = bytes / records;
    if (o.bytesTarget) {
      const ok = perRecord <= o.bytesTarget;
      if (!ok) missed.push('disk bytes per record');
      console.log(`  disk bytes per record        ${fmt(perRecord)}   target <= ${fmt(o.bytesTarget)}  ${verdict(ok)}`);
      console.log(`    of which: ${breakdown(h.config.dataDir, records)}`);
    } else console.log(`  disk bytes per record        ${fmt(perRecord)} (tables and indexes of the local history)`);

    const sample = h.sim.dataset.query({
      from: startOf(firstDay),
      to: startOf(lastDay) + DAY_MS,
      enterpriseId: null,
      order: 'asc',
      offset: 0,
      limit: 10_000_000,
    });
    const rec = (i: number) =>
      h.sim.dataset.recordAt(sample.indices[(i * 104_729) % sample.indices.length]!, 'UTC') as unknown as Record<
        string,
        string
      >;
    const withRef = (i: number) => {
      for (let j = i; ; j++) if (rec(j).ref) return rec(j);
    };
    const range = (days: number) => ({
      'date-from': `${addDays(lastDay, -(days - 1))} 00:00:00`,
      'date-to': `${addDays(lastDay, 1)} 00:00:00`,
    });
    const statuses = ['DELIVRD', 'UNDELIV', 'EXPIRED', 'REJECTD'];
    const cases: Case[] = [];
    for (const days of [31, 365] as const) {
      cases.push(
        {
          name: 'two filters, page 1',
          days,
          params: (i) => ({ ...range(days), status: statuses[i % 4]!, network: rec(i).network_code! }),
        },
        {
          name: 'two filters, page 1000',
          days,
          params: (i) => ({ ...range(days), status: 'DELIVRD', network: rec(i).network_code!, page: '1000' }),
        },
        { name: `q=${WORD}, page 1`, days, params: () => ({ ...range(days), q: WORD }) },
        { name: `q=${WORD}, page 1000`, days, params: () => ({ ...range(days), q: WORD, page: '1000' }) },
        {
          name: 'sorted by price, page 1',
          days,
          params: (i) => ({ ...range(days), sort: 'price', 'sort-order': i % 2 ? 'asc' : 'desc' }),
        },
        {
          name: 'sorted by price, page 1000',
          days,
          params: (i) => ({ ...range(days), sort: 'price', 'sort-order': i % 2 ? 'asc' : 'desc', page: '1000' }),
        },
      );
    }
    cases.push(
      { name: 'q: part of a reference', days: 31, params: (i) => ({ ...range(31), q: withRef(i).ref!.slice(-7) }) },
      { name: 'q: 配達 (two characters)', days: 31, params: () => ({ ...range(31), q: '配達' }) },
      { name: 'q: -2026-1', days: 31, params: () => ({ ...range(31), q: '-2026-1' }) },
      { name: 'q: part of a number', days: 31, params: (i) => ({ ...range(31), q: rec(i).to_address!.slice(-7) }) },
      {
        name: 'last 4 digits (da-suffix)',
        days: 31,
        params: (i) => ({ ...range(31), 'da-suffix': rec(i).to_address!.slice(-4) }),
      },
      { name: 'no filter, page 1000', days: 31, params: () => ({ ...range(31), page: '1000' }) },
    );

    /** One search: through the planner over 31 days (as the API asks), the store's over 365. */
    const run = async (c: Case, i: number): Promise<number> => {
      const params = { 'page-size': '25', ...c.params(i) };
      if (c.days === 31) {
        const page = await h.transactions.page(account, queryOf(params));
        if (page._meta.source !== 'history') throw new Error(`${c.name}: answered by ${page._meta.source}`);
        return page._embedded.total_found;
      }
      const q = queryOf(params);
      const search = localSearchOf(scope, q, [{ from: q.from.getTime(), to: q.to.getTime() }]);
      const { total, bodies } = await h.store.history.slice(search, (q.page - 1) * q.pageSize, q.pageSize);
      if (q.page === 1 && total > 0 && bodies.length === 0) throw new Error(`${c.name}: an empty first page`);
      return total;
    };

    const calls = () => h.sim.stats().total.queryRequests;
    const callsBefore = calls();
    console.log(`  searches, ${RUNS} runs each (after one not counted); target p95 < ${o.targetMs} ms`);
    console.log(
      `  ${'case'.padEnd(34)} ${'days'.padStart(4)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)}  ${'total_found'.padStart(11)}`,
    );
    let caseMet = 0;
    for (const c of cases) {
      await run(c, 0);
      const times: number[] = [];
      let total = 0;
      for (let i = 0; i < RUNS; i++) {
        const t = performance.now();
        const found = await run(c, i);
        times.push(performance.now() - t);
        if (i === 0) total = found;
      }
      const p95 = percentile(times, 95);
      const ok = p95 < o.targetMs;
      if (ok) caseMet += 1;
      else missed.push(`${c.name} (${c.days} days)`);
      console.log(
        `  ${c.name.padEnd(34)} ${String(c.days).padStart(4)} ${fmt(percentile(times, 50), 1).padStart(8)} ${fmt(p95, 1).padStart(8)}  ${fmt(total).padStart(11)}  ${verdict(ok)}`,
      );
    }
    console.log(`  ${caseMet} of ${cases.length} cases met; upstream calls for all of them: ${calls() - callsBefore}`);

    const insightCases: [string, Record<string, string>][] = [
      ['no filter', { ...range(31), tz: 'UTC' }],
      ['network=44010', { ...range(31), tz: 'UTC', network: '44010' }],
      ['status=UNDELIV & oa=SakuraMart', { ...range(31), tz: 'UTC', status: 'UNDELIV', oa: 'SakuraMart' }],
      [`q=${WORD}`, { ...range(31), tz: 'UTC', q: WORD }],
      ['latency-min=60', { ...range(31), tz: 'UTC', 'latency-min': '60' }],
      [
        'no filter, JST days',
        { 'date-from': `${addDays(lastDay, -30)} 09:00:00`, 'date-to': `${addDays(lastDay, 1)} 08:59:59`, tz: 'JST' },
      ],
    ];
    console.log(`  Insights over 31 days, computed afresh each run; target p95 < ${o.targetMs} ms`);
    let insightsMet = 0;
    for (const [name, params] of insightCases) {
      const query = queryOf(params);
      const answer = await h.insights.get(ACCOUNT, query);
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        h.insights.forgetAnswers();
        const t = performance.now();
        await h.insights.get(ACCOUNT, query);
        times.push(performance.now() - t);
      }
      const p95 = percentile(times, 95);
      const ok = p95 < o.targetMs;
      if (ok) insightsMet += 1;
      else missed.push(`Insights ${name}`);
      console.log(
        `  ${name.padEnd(34)} ${'31'.padStart(4)} ${fmt(percentile(times, 50), 1).padStart(8)} ${fmt(p95, 1).padStart(8)}  ${fmt(answer.total).padStart(11)}  ${verdict(ok)}  (${answer._meta.computedFrom})`,
      );
    }
    console.log(`  ${insightsMet} of ${insightCases.length} Insights cases met`);
    console.log('');
  } finally {
    await h.close();
  }
  return { missed };
}
