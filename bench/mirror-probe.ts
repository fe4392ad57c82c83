import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSimulator } from '../simulator/server';
import { openStore } from '../lib/store';
import { loadHistoryFixture } from '../tests/support/history-fixture';
import { dayOf } from '../lib/history/days';
import { localSearchOf } from '../lib/history/local-query';
import { parseQuery } from '../lib/query/query';

async function main() {
  const now = Date.now();
  const sim = await startSimulator({ port: 0, days: 33, perDay: 33_000, limits: false, quiet: true, now: () => now });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-probe-'));
  const store = await openStore({ dataDir: dir });
  const t0 = performance.now();
  const from = dayOf(now - 32 * 86_400_000), to = dayOf(now - 2 * 86_400_000);
  const n = await loadHistoryFixture(store.history, sim.dataset, { scope: 'support\u0000', enterpriseId: null, fromDay: from, toDay: to, progress: (d, r) => { if (r % 100000 < 34000) console.log(d, r, Math.round(performance.now() - t0)); } });
  console.log('loaded', n, 'in', Math.round(performance.now() - t0), 'ms');
  const size = fs.statSync(path.join(dir, 'dashboard.sqlite')).size + (fs.existsSync(path.join(dir, 'dashboard.sqlite-wal')) ? fs.statSync(path.join(dir, 'dashboard.sqlite-wal')).size : 0);
  console.log('bytes/record', Math.round(size / n));
  const base = { 'date-from': `${from} 00:00:00`, 'date-to': `${to} 23:59:59` };
  const cases: [string, Record<string, string>][] = [
    ['two filters p1', { ...base, status: 'DELIVRD', network: '44010' }],
    ['two filters p1000', { ...base, status: 'DELIVRD', network: '44010', page: '1000' }],
    ['q p1', { ...base, q: 'sakura' }],
    ['q jp p1', { ...base, q: '配達' }],
    ['q jp3 p1', { ...base, q: 'お届け' }],
    ['sort price p1', { ...base, sort: 'price', 'sort-order': 'desc' }],
    ['sort price p1000', { ...base, sort: 'price', 'sort-order': 'desc', page: '1000' }],
    ['sort to p1000', { ...base, sort: 'to_address', page: '1000' }],
    ['plain p1000', { ...base, page: '1000' }],
    ['da-suffix', { ...base, 'da-suffix': '5678' }],
  ];
  for (const [name, params] of cases) {
    const q = parseQuery(params);
    if (!q.ok) { console.log(name, q.errors); continue; }
    const s = localSearchOf('support\u0000', q.query, [{ from: q.query.from.getTime(), to: q.query.to.getTime() }]);
    const times: number[] = [];
    let total = 0;
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      total = await store.history.count(s);
      await store.history.page(s, (q.query.page - 1) * q.query.pageSize, q.query.pageSize);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    console.log(name.padEnd(20), 'total', total, 'median', times[2]!.toFixed(1), 'max', times[4]!.toFixed(1));
  }
  await store.close();
  await sim.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
main().catch((e) => { console.error(e); process.exit(1); });
