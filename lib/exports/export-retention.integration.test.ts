/**
 * A finished export past its retention is gone at once — its file, its job, its place in the list —
 * not when the pruner next runs (every few minutes). Through the services, against the simulator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authSecret } from '../auth/auth-secret';
import { seal } from '../auth/secret-box';
import { ProblemError } from '../http/problem';
import { startHarness, type Harness } from '../../tests/support/service-harness';
import { exportRequest } from '../../tests/support/parsed';

let h: Harness;
let skew = 0;
beforeAll(async () => {
  h = await startHarness({ now: () => Date.now() + skew, env: { EXPORT_RETENTION_DAYS: '1' } });
  const now = Date.now();
  await h.store.vault.put({
    sid: 'sid-demo',
    apiKey: 'demo',
    enterpriseId: null,
    sealedSecret: seal('demo-secret', authSecret()),
    createdAt: now,
    expiresAt: now + 3600_000,
  });
  h.start();
});
afterAll(async () => {
  await h.close();
});

const demo = { apiKey: 'demo', enterpriseId: null, sid: 'sid-demo' };
const status = (p: Promise<unknown>) =>
  p.then(
    () => 200,
    (err: unknown) => (err instanceof ProblemError ? err.problem.status : 500),
  );

describe('an export past its retention', () => {
  it('can no longer be read, listed or downloaded, though not yet pruned', async () => {
    const day = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
    const created = await h.exports.create(
      demo,
      exportRequest(
        {
          'date-from': `${day} 00:00:00`,
          'date-to': `${day} 01:00:00`,
          tz: 'UTC',
        },
        demo.enterpriseId,
      ),
    );
    if (created.kind !== 'job') throw new Error('expected a job');
    const id = created.job.id;
    let job = created.job;
    for (let i = 0; i < 200 && job.state !== 'done'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      job = await h.exports.get(demo, id);
    }
    expect(job.state).toBe('done');
    expect(await status(h.exports.file(demo, id))).toBe(200);

    // A second before its time is up, and a second after (the pruner has not run: it is still stored).
    skew = Date.parse(job.expiresAt!) - Date.now() - 1000;
    expect(await status(h.exports.file(demo, id))).toBe(200);
    skew += 2000;
    expect(await h.store.exportJobs.getJob(id)).not.toBeNull();
    expect(await status(h.exports.get(demo, id))).toBe(404);
    expect(await status(h.exports.file(demo, id))).toBe(404);
    expect((await h.exports.list(demo)).map((j) => j.id)).not.toContain(id);
  });
});
