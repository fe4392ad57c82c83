/**
 * `npm run bench:history`: what the local history costs and what it saves, for a busy account
 * (issue 37). Every figure is printed beside its target:
 *  1. the sync at the page size it finds against an upstream serving 1,000 a page: the page size,
 *     the messages a day it keeps up with at the seed's limits, its own cost per record beyond the
 *     upstream's time (bench/lib/history-sync.ts);
 *  2. a scripted support day: upstream calls without the local history and with it;
 *  3. a year of the account on SQLite (3,000,000 records): disk bytes per record, and p95 of the
 *     searches and of Insights (bench/lib/history-scale.ts);
 *  4. the same on PostgreSQL (1,000,000 records, pg_trgm for free text), on DATABASE_URL when set,
 *     else on a throwaway server the benchmark starts and removes.
 *
 *   npm run bench:history [-- --records 300000] [--skip-sync] [--skip-sqlite] [--skip-postgres] [--data <folder>]
 *
 * --records N: SQLite's records (PostgreSQL gets a third). --data: SQLite's data folder, kept and
 * reused by the next run (loading 3,000,000 records takes about 20 minutes on 2 cores: README
 * "Tests and benchmarks").
 */
import os from 'node:os';
import { createDatabase, startPostgres, type PostgresServer } from '../tests/support/postgres';
import { fmt } from './lib/figures';
import { syncAndSupportDay } from './lib/history-sync';
import { searchesAtScale } from './lib/history-scale';

const DEFAULT_RECORDS = 3_000_000;
const DAYS = 365;

function flags(argv: readonly string[]) {
  const out = {
    records: DEFAULT_RECORDS,
    sync: true,
    sqlite: true,
    postgres: true,
    data: undefined as string | undefined,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--records') {
      const n = Number(argv[++i]);
      if (!Number.isSafeInteger(n) || n < DAYS) throw new Error(`--records needs a whole number of at least ${DAYS}`);
      out.records = n;
    } else if (arg === '--data') out.data = argv[++i];
    else if (arg === '--skip-sync') out.sync = false;
    else if (arg === '--skip-sqlite') out.sqlite = false;
    else if (arg === '--skip-postgres') out.postgres = false;
    else
      throw new Error(
        `unknown option ${arg}: --records N, --data <folder>, --skip-sync, --skip-sqlite, --skip-postgres`,
      );
  }
  return out;
}

async function main() {
  process.env.LOG_LEVEL = 'error';
  const o = flags(process.argv.slice(2));
  console.log(
    `bench:history on ${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log('');
  const results: [string, string[]][] = [];
  if (o.sync) results.push(['Sync and support day', (await syncAndSupportDay()).missed]);
  if (o.sqlite) {
    const r = await searchesAtScale({
      backend: 'sqlite',
      records: o.records,
      days: DAYS,
      targetMs: 100,
      bytesTarget: 1200,
      ...(o.data ? { dataDir: o.data } : {}),
    });
    results.push([`SQLite, ${fmt(o.records)} records asked`, r.missed]);
  }
  if (o.postgres) {
    const records = Math.round(o.records / 3);
    let server: PostgresServer | null = null;
    let url = process.env.DATABASE_URL;
    let drop: (() => Promise<void>) | null = null;
    if (!url) {
      // A server of its own, sized as a real one would be for a year of records (the tests' is tiny).
      server = await startPostgres({
        settings: ['shared_buffers=1GB', 'work_mem=32MB', 'effective_cache_size=4GB', 'maintenance_work_mem=256MB'],
      });
      const database = await createDatabase(server.url, 'bench_history', { ctype: 'C.UTF-8' });
      url = database.url;
      drop = () => database.drop();
    }
    try {
      const r = await searchesAtScale({ backend: 'postgres', records, days: DAYS, targetMs: 150, databaseUrl: url });
      results.push([`PostgreSQL, ${fmt(records)} records asked`, r.missed]);
    } finally {
      await drop?.();
      await server?.stop();
    }
  }
  for (const [what, missed] of results)
    console.log(`${what}: ${missed.length === 0 ? 'every target met' : `MISSED: ${missed.join('; ')}`}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
