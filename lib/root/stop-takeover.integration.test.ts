/**
 * A stop while the upstream hangs is bounded and gives the work back at once: the export's step in
 * flight is aborted after the grace, its lease is released as the stop returns (not left to expire),
 * and another instance on the same PostgreSQL takes the export over and finishes it, paying for no
 * page twice (only the call that never got an answer is made again).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { exportRequest } from '../../tests/support/parsed';
import { startHarnessOn } from '../../tests/support/harness-on';
import type { Harness } from '../../tests/support/service-harness';
import { authSecret } from '../auth/auth-secret';
import { seal } from '../auth/secret-box';

const ROOMY = { UPSTREAM_LIMIT_PER_MINUTE: '1000', UPSTREAM_LIMIT_PER_HOUR: '10000', UPSTREAM_LIMIT_PER_DAY: '100000' };
const harnesses: Harness[] = [];
afterAll(async () => {
  for (const h of harnesses.reverse()) await h.close();
});

async function until(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('a stop with the upstream hanging, on PostgreSQL with two instances', () => {
  it('ends within its grace, releases the lease at once, and the other instance finishes without paying twice', async () => {
    const a = await startHarnessOn('postgres', { env: ROOMY, sim: { days: 8, perDay: 1500, latencyMs: 150 } });
    harnesses.push(a);
    const b = await startHarnessOn('postgres', {
      env: { ...ROOMY, UPSTREAM_BASE_URL: a.sim.url },
      databaseUrl: a.config.DATABASE_URL!,
    });
    harnesses.push(b);
    const now = Date.now();
    await a.store.vault.put({
      sid: 'sid-fuji',
      apiKey: 'fuji',
      enterpriseId: null,
      sealedSecret: seal('fuji-secret', authSecret()),
      createdAt: now,
      expiresAt: now + 3600_000,
    });
    const fuji = { apiKey: 'fuji', enterpriseId: null, sid: 'sid-fuji' };
    const day = new Date(now - 6 * 86_400_000).toISOString().slice(0, 10);
    const created = await a.exports.create(
      fuji,
      exportRequest({ 'date-from': `${day} 00:00:00`, 'date-to': `${day} 23:59:59` }, fuji.enterpriseId),
    );
    if (created.kind !== 'job') throw new Error('expected a job');
    const id = created.job.id;
    const calls = () => a.sim.stats().accounts.fuji?.queryRequests ?? 0;

    a.exportRunner.start();
    await until(async () => (await a.exports.get(fuji, id)).progress.recordsFetched >= 200, 20_000, 'two pages');
    // The next call that arrives hangs (one already in flight is answered).
    const beforeHang = calls();
    a.sim.setFaults({ hang: true });
    await until(
      async () => calls() > beforeHang && (a.sim.stats().accounts.fuji?.inFlight ?? 0) > 0,
      5_000,
      'a call hanging',
    );
    const started = performance.now();
    await a.stopBackground(1_000);
    expect(performance.now() - started).toBeLessThan(3_000);
    // Given back as the stop returns: nobody holds the export.
    expect(await a.store.leases.holderOf(`export:${id}`, Date.now())).toBeNull();
    const paidBeforeTakeover = calls();

    a.sim.clearFaults();
    const takeoverStarted = Date.now();
    b.exportRunner.start();
    await until(
      async () => b.exportRunner.isRunning(id) || (await b.exports.get(fuji, id)).state === 'done',
      5_000,
      'B to take it',
    );
    // Taken at once, not after the 30 s a dead instance's lease takes to expire.
    expect(Date.now() - takeoverStarted).toBeLessThan(5_000);
    await until(async () => (await b.exports.get(fuji, id)).state === 'done', 60_000, 'the export to finish');
    const job = await b.exports.get(fuji, id);
    const pages = Math.ceil((job.progress.totalExpected ?? 0) / 100);
    expect(pages).toBeGreaterThan(3);
    // Every page once, and the call that hung (no answer came: nothing was paid for) once more.
    expect(calls()).toBe(pages + 1);
    expect(paidBeforeTakeover).toBeLessThan(pages + 1);
    expect(job.countCheck).toMatchObject({ expected: job.progress.totalExpected, written: job.progress.totalExpected });
  }, 120_000);
});
