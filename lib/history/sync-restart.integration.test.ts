/**
 * The copy across a restart, and beside people, over real HTTP against the simulator:
 *  - a server stopped in the middle of a copy and started again over the same data folder resumes
 *    where it stopped: every page of every day is paid for exactly once;
 *  - at the seed's real limits (3 a minute, 10 an hour, 100 a day), while the copy runs, a person's
 *    search of a recent range still gets its call at once (the governor keeps people's calls and
 *    the copy's share; the queue wait here is so short that any wait for a window would fail).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authSecret } from '../auth/auth-secret';
import { seal } from '../auth/secret-box';
import { configSchema } from '../config';
import { parseQuery } from '../query/query';
import { buildServices, type Services } from '../root/services';
import { CREDENTIALS } from '../../simulator/accounts';
import { startSimulator, type RunningSimulator } from '../../simulator/server';
import { formatWallClock } from '../time/zones';
import { dayOf, startOf } from './days';
import { DAY_MS } from '../time/units';

let sim: RunningSimulator;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sync-restart-'));
const NOW = Date.now();
const SINCE = dayOf(NOW - 7 * DAY_MS);
const demo = CREDENTIALS.find((c) => c.apiKey === 'demo')!;
const account = { apiKey: 'demo', enterpriseId: null, sid: 'sid-demo' };
const queryCalls = () => sim.stats().accounts.demo?.queryRequests ?? 0;

async function services(dataDir: string, env: Record<string, string>): Promise<Services> {
  const config = {
    ...configSchema.parse({ UPSTREAM_BASE_URL: sim.url, DATA_DIR: dataDir, LOG_LEVEL: 'error', ...env }),
    dataDir,
  };
  const s = await buildServices(config);
  await s.store.vault.put({
    sid: 'sid-demo',
    apiKey: 'demo',
    enterpriseId: null,
    sealedSecret: seal(demo.secret, authSecret()),
    createdAt: Date.now(),
    expiresAt: Date.now() + 3600_000,
  });
  return s;
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0, quiet: true, perDay: 2500, days: 10, seed: 5, limits: false });
});

afterAll(async () => {
  await sim.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('the copy across a restart', () => {
  it('resumes where it stopped and pays for every page exactly once', async () => {
    const dataDir = path.join(tmp, 'restart');
    const roomy = {
      UPSTREAM_LIMIT_PER_MINUTE: '10000',
      UPSTREAM_LIMIT_PER_HOUR: '100000',
      UPSTREAM_LIMIT_PER_DAY: '1000000',
    };
    sim.resetStats();
    const first = await services(dataDir, roomy);
    await first.history.put(account, { enabled: true, since: SINCE });
    first.syncRunner.start();
    // Stop in the middle: some pages stored, the copy not complete.
    await waitFor(async () => (await first.history.get(account)).records >= 3000, 60_000);
    await first.close();
    const before = await (async () => {
      const again = await services(dataDir, roomy);
      const state = await again.history.get(account);
      await again.close();
      return state;
    })();
    expect(before.state).not.toBe('complete');
    const paidBefore = queryCalls();

    const second = await services(dataDir, roomy);
    second.syncRunner.start();
    await waitFor(async () => (await second.history.get(account)).state === 'complete', 90_000);
    const done = await second.history.get(account);
    await second.close();

    // What the copy needs: one call per page of each settled day, [D 00:00:00, D+1 00:00:00].
    const complete = done.days.filter((d) => d.state === 'complete');
    expect(complete.length).toBeGreaterThanOrEqual(4);
    let pages = 0;
    for (const d of complete) {
      const from = startOf(d.day);
      const all = sim.dataset.query({ from, to: from + DAY_MS, enterpriseId: demo.enterpriseId, limit: 0 });
      pages += Math.max(1, Math.ceil(all.total / 100));
      const inDay = sim.dataset.query({ from, to: from + DAY_MS - 1, enterpriseId: demo.enterpriseId, limit: 0 });
      expect(d.records, d.day).toBe(inDay.total);
    }
    expect(paidBefore).toBeGreaterThan(0);
    // And one more: the first page asked with the probe's size (1,000), which this simulator
    // refuses (it serves 100 at most); the page size kept, it is not asked again after the restart.
    expect(queryCalls()).toBe(pages + 1);
  }, 180_000);
});

describe('the copy beside people, at the real limits', () => {
  it('leaves a person’s search of a recent range its call at once while it runs', async () => {
    const dataDir = path.join(tmp, 'strict');
    sim.resetStats();
    const s = await services(dataDir, {
      UPSTREAM_LIMIT_PER_MINUTE: '3',
      UPSTREAM_LIMIT_PER_HOUR: '10',
      UPSTREAM_LIMIT_PER_DAY: '100',
      UPSTREAM_QUEUE_WAIT_MS: '1500',
    });
    try {
      await s.history.put(account, { enabled: true, since: SINCE });
      s.syncRunner.start();
      await waitFor(async () => queryCalls() >= 1, 20_000);
      // The copy took its share of the minute; it does not take the calls kept for people.
      await new Promise((r) => setTimeout(r, 1_000));
      const copyCalls = queryCalls();
      expect(copyCalls).toBeLessThanOrEqual(Math.floor(3 * 0.6));

      const end = Math.floor(Date.now() / 1000) * 1000;
      const parsed = parseQuery({
        'date-from': formatWallClock(new Date(end - 3600_000), 'UTC'),
        'date-to': formatWallClock(new Date(end), 'UTC'),
      });
      if (!parsed.ok) throw new Error('bad query');
      const person = {
        apiKey: 'demo',
        enterpriseId: null,
        credentials: async () => ({ apiKey: 'demo', secret: demo.secret }),
      };
      const page = await s.transactions.page(person, parsed.query);
      expect(page._meta).toMatchObject({ source: 'upstream', calls: 1 });
      expect(queryCalls()).toBe(copyCalls + 1);
      // And the copy still is not allowed more than its share of the minute.
      const state = await s.history.get(account);
      expect(['syncing', 'waiting']).toContain(state.state);
    } finally {
      await s.close();
    }
  }, 60_000);
});
