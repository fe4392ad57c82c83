import fs from 'node:fs'; import os from 'node:os'; import path from 'node:path';
import { startSimulator } from '../simulator/server';
import { openStore } from '../lib/store';
import { loadHistoryFixture } from '../tests/support/history-fixture';
import { addDays, dayOf, DAY_MS, lastSettledDay } from '../lib/history/days';
import { localSearchOf } from '../lib/history/local-query';
import { parseQuery } from '../lib/query/query';
import Database from 'better-sqlite3';
const N = Number(process.env.N ?? 100000);
async function main() {
  const dir = process.env.DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'exp-'));
  const now = Date.now();
  const sim = await startSimulator({ port: 0, days: 35, perDay: Math.ceil(N / 31), limits: false, quiet: true, now: () => now, seed: 3 });
  const last = lastSettledDay(now - 72 * 3600_000); const first = addDays(last, -30);
  const scope = '["support",null]';
  let store = await openStore({ dataDir: dir });
  if (!process.env.DIR) { const t = performance.now(); await loadHistoryFixture(store.history, sim.dataset, { scope, enterpriseId: null, fromDay: first, toDay: last }); console.log('load', Math.round(performance.now() - t)); console.log('dir', dir); }
  const base = { 'date-from': `${first} 00:00:00`, 'date-to': `${addDays(last, 1)} 00:00:00` };
  const cases: [string, Record<string, string>][] = [
    ['2f p1', { ...base, status: 'DELIVRD', network: '44010' }],
    ['2f p1000', { ...base, status: 'DELIVRD', network: '44010', page: '1000' }],
    ['q p1', { ...base, q: 'お届け' }],
    ['q2 p1', { ...base, q: '配達' }],
    ['price p1', { ...base, sort: 'price', 'sort-order': 'desc' }],
    ['price p1000', { ...base, sort: 'price', 'sort-order': 'asc', page: '1000' }],
    ['suffix', { ...base, 'da-suffix': '5678' }],
    ['plain p1000', { ...base, page: '1000' }],
  ];
  for (const [name, params] of cases) {
    const q = parseQuery({ 'page-size': '25', ...params }); if (!q.ok) throw new Error(JSON.stringify(q.errors));
    const s = localSearchOf(scope, q.query, [{ from: q.query.from.getTime(), to: q.query.to.getTime() }]);
    const tc: number[] = [], tp: number[] = [];
    let total = 0;
    for (let i = 0; i < 5; i++) {
      let t = performance.now(); total = await store.history.count(s); tc.push(performance.now() - t);
      t = performance.now(); await store.history.page(s, (q.query.page - 1) * 25, 25); tp.push(performance.now() - t);
    }
    tc.sort((a,b)=>a-b); tp.sort((a,b)=>a-b);
    console.log(name.padEnd(12), 'total', String(total).padStart(7), 'count', tc[2]!.toFixed(1).padStart(8), 'page', tp[2]!.toFixed(1).padStart(8));
  }
  await store.close(); await sim.close();
}
main().catch((e) => { console.error(e); process.exit(1); });
