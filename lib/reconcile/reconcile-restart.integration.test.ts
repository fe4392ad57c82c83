/**
 * A reconciliation stopped mid-run (the server stops: its step in flight finishes and is stored)
 * resumes in a new server over the same store and pays no page twice: the calls of both servers
 * together are the plan's, and every row is answered as the simulator holds it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../tests/support/service-harness';
import { authSecret } from '../auth/auth-secret';
import { seal } from '../auth/secret-box';
import { parseQuery } from '../query/query';
import { formatWallClock } from '../time/zones';
import { parseListValues } from './parse-list';

const DAY = 86_400_000;
const NOW = Date.now();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reconcile-restart-'));
const SIM = { perDay: 1500, days: 20, seed: 31, latencyMs: 15 };
const ENV = {
  UPSTREAM_LIMIT_PER_MINUTE: '10000',
  UPSTREAM_LIMIT_PER_HOUR: '100000',
  UPSTREAM_LIMIT_PER_DAY: '1000000',
  UPSTREAM_BACKGROUND_RESERVE: '0',
};
const opened: Harness[] = [];

afterAll(async () => {
  await Promise.all(opened.map((h) => h.close().catch(() => undefined)));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function server(): Promise<Harness> {
  const h = await startHarness({ sim: SIM, env: ENV, dataDir });
  opened.push(h);
  return h;
}

it('resumes after a restart where the store says it stopped, paying no page twice', async () => {
  const first = await server();
  await first.store.vault.put({
    sid: 'sid-demo',
    apiKey: 'demo',
    enterpriseId: null,
    sealedSecret: seal('demo-secret', authSecret()),
    createdAt: NOW,
    expiresAt: NOW + 3600_000,
  });
  const account = { ...first.account('demo'), sid: 'sid-demo' };
  const from = Math.floor((NOW - 10 * DAY) / DAY) * DAY;
  const to = from + 3 * DAY;
  const all = first.sim.dataset.query({ from, to, enterpriseId: 'ent-sakura', order: 'asc', offset: 0, limit: 1e6 });
  const ids = all.indices.filter((_, i) => i % 4 === 0).map((i) => first.sim.dataset.trxIdAt(i));
  // The window's first page, cached by a search, makes the plan exact.
  const q = parseQuery({
    'date-from': formatWallClock(new Date(from), 'UTC'),
    'date-to': formatWallClock(new Date(to), 'UTC'),
    'page-size': '100',
    'sort-order': 'asc',
  });
  if (!q.ok) throw new Error('query');
  await first.transactions.page(account, q.query);
  const reading = parseListValues(ids, 'trx_id', 'UTC');
  if (!reading.ok) throw new Error('list');
  const created = await first.reconciliations.create(account, {
    list: reading.list,
    source: null,
    tz: 'UTC',
    range: { from, to },
    expected: { count: null, cost: null, currency: null },
  });
  expect(created.plan.callsKnown).toBe('exact');
  expect(created.plan.calls).toBeGreaterThan(10);
  const searchCalls = first.upstreamCalls('demo');
  first.reconcileRunner.start();
  await first.reconciliations.start(account, created.id);
  for (;;) {
    const r = await first.reconciliations.get(account, created.id);
    if (r.progress.callsSpent >= 4) break;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await first.close();
  const callsBefore = first.upstreamCalls('demo') - searchCalls;
  const stopped = await (async () => {
    const again = await server();
    const r = await again.reconciliations.get(account, created.id);
    return { again, r };
  })();
  expect(stopped.r.state).not.toBe('done');
  expect(stopped.r.progress.callsSpent).toBe(callsBefore);
  const { again } = stopped;
  again.reconcileRunner.start();
  const until = Date.now() + 60_000;
  let done = stopped.r;
  while (done.state !== 'done') {
    if (Date.now() > until) throw new Error(`still ${done.state}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    done = await again.reconciliations.get(account, created.id);
  }
  expect(callsBefore + again.upstreamCalls('demo')).toBe(created.plan.calls);
  expect(done.progress.callsSpent).toBe(created.plan.calls);
  expect(done.summary.outcomes.matched).toBe(ids.length);
});
