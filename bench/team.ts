/**
 * bench/team: what team mode adds to a request, measured where it is added.
 *  - The presenter (lib/team/presenter.ts): a cached page of 100 records written as JSON for an
 *    admin (as it is) and for a support person (masked), the masked copies made once and kept with
 *    their JSON, and made afresh each time (a page seen for the first time).
 *  - The session (lib/team/team-vault.ts): resolving a team person's session reads its team
 *    account's key and sealed secret besides the session; a personal session reads the session only.
 *    On the real SQLite store, through the vault as the server reads it.
 *
 *   npm run bench:team
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStore } from '../lib/root/open-store';
import { authSecret, seal } from '../lib/auth/server';
import { presentCdr } from '../lib/search/present';
import { pageJson } from '../lib/search/server';
import { createTeamStores, presenterFor, teamAwareVault } from '../lib/team/server';
import type { Cdr } from '../lib/cdr/schema';
import type { TransactionsPage } from '../lib/search/api';
import { cdrSchema } from '../lib/cdr/schema';
import { startSimulator } from '../simulator/server';

const PAGES = 2000;
const LOOKUPS = 3000;
/** Rounds of each measure, taken in turn (the machine is shared): the median is printed, with the spread. */
const ROUNDS = 7;

type Measure = { label: string; runs: number; fn: () => unknown };

/** µs a run of each measure: the median of ROUNDS rounds taken in turn, and the lowest and highest. */
async function compare(measures: Measure[]): Promise<number[]> {
  const rounds: number[][] = measures.map(() => []);
  for (let r = 0; r <= ROUNDS; r++) {
    for (const [i, m] of measures.entries()) {
      const start = process.hrtime.bigint();
      for (let n = 0; n < m.runs; n++) await m.fn();
      // Round 0 warms up (the JIT, SQLite's page cache) and is not counted.
      if (r > 0) rounds[i]!.push(Number(process.hrtime.bigint() - start) / 1000 / m.runs);
    }
  }
  return measures.map((m, i) => {
    const sorted = rounds[i]!.sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    console.log(
      `${m.label.padEnd(52)} ${median.toFixed(1).padStart(8)} µs  (${sorted[0]!.toFixed(1)}–${sorted.at(-1)!.toFixed(1)})`,
    );
    return median;
  });
}

async function main() {
  const sim = await startSimulator({ port: 0, quiet: true, days: 2, perDay: 2000 });
  const raw = Array.from({ length: 100 }, (_, i) => cdrSchema.parse(sim.dataset.recordAt(i * 7, 'UTC')) as Cdr);
  const page = (cdrs: Cdr[]): TransactionsPage =>
    ({
      page_size: 100,
      page: 1,
      _links: { self: { href: '/api/transactions?page=1' } },
      _embedded: { total_found: 100, cdrs },
      _meta: { source: 'cache', calls: 0 },
    }) as unknown as TransactionsPage;
  const presented = page(raw.map((c) => presentCdr(c, 'JST')));
  const admin = presenterFor('admin');
  const support = presenterFor('support');

  console.log(`a page of 100 records as JSON, median of ${ROUNDS} rounds of ${PAGES} pages (lowest–highest)`);
  const fresh = () => page(raw.map((c) => presentCdr({ ...c } as Cdr, 'JST')));
  const [a, s, an, sn] = await compare([
    { label: '  cached page, admin (as it is)', runs: PAGES, fn: () => pageJson(admin.page(presented)) },
    { label: '  cached page, support (masked copies kept)', runs: PAGES, fn: () => pageJson(support.page(presented)) },
    { label: '  page seen first, admin (present + JSON)', runs: PAGES / 10, fn: () => pageJson(admin.page(fresh())) },
    {
      label: '  page seen first, support (present + mask + JSON)',
      runs: PAGES / 10,
      fn: () => pageJson(support.page(fresh())),
    },
  ]);
  console.log(
    `  masking's cost: ${(s! - a!).toFixed(1)} µs a cached page, ${(sn! - an!).toFixed(1)} µs a page seen first`,
  );
  await sim.close();

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-team-'));
  const store = await openStore({ dataDir: dir }, { historyWriter: 'inline' });
  try {
    const stores = createTeamStores(store.db, store.dialect);
    await stores.accounts.syncFromEnvironment(
      { apiKey: 'fuji', secret: 'fuji-secret', enterpriseId: null },
      Date.now(),
    );
    const vault = teamAwareVault(store.vault, stores.accounts);
    const now = Date.now();
    const base = { enterpriseId: null, createdAt: now, expiresAt: now + 3_600_000 };
    await vault.put({ ...base, sid: 'personal', apiKey: 'demo', sealedSecret: seal('demo-secret', authSecret()) });
    await vault.put({
      ...base,
      sid: 'team',
      apiKey: 'fuji',
      sealedSecret: '',
      team: { person: 'sora', role: 'support', roleCheckedAt: now, sealedTokens: null, account: 'env' },
    });
    console.log(`resolving a session on SQLite, median of ${ROUNDS} rounds of ${LOOKUPS} lookups (lowest–highest)`);
    const [p, t] = await compare([
      { label: '  personal session', runs: LOOKUPS, fn: () => vault.get('personal', Date.now()) },
      { label: '  team session (and its team account)', runs: LOOKUPS, fn: () => vault.get('team', Date.now()) },
    ]);
    console.log(`  the team account's read: ${(t! - p!).toFixed(1)} µs a request`);
  } finally {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
