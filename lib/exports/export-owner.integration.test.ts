/**
 * An export belongs to the account that asked for it, API key and enterprise: a key that reaches
 * several enterprises (support), signed in for another one, neither lists, reads, downloads nor
 * cancels it. Through the services, against the simulator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../tests/support/service-harness';
import { ProblemError } from '../http/problem';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const asked = { apiKey: 'support', enterpriseId: 'ent-minato', sid: 'sid-minato' };
const other = { apiKey: 'support', enterpriseId: 'ent-fuji', sid: 'sid-fuji' };
const status = (p: Promise<unknown>) => p.then(() => 200, (err: unknown) => (err instanceof ProblemError ? err.problem.status : 500));

describe('an export', () => {
  it('is its account’s, API key and enterprise', async () => {
    const created = await h.exports.create(asked, { 'date-from': '2026-10-01 00:00:00', 'date-to': '2026-10-02 00:00:00', tz: 'UTC' });
    if (created.kind !== 'job') throw new Error('expected a job');
    const id = created.job.id;
    expect((await h.exports.list(asked)).map((j) => j.id)).toEqual([id]);
    expect(await status(h.exports.get(asked, id))).toBe(200);

    expect(await h.exports.list(other)).toEqual([]);
    expect(await status(h.exports.get(other, id))).toBe(404);
    expect(await status(h.exports.file(other, id))).toBe(404);
    expect(await status(h.exports.cancel(other, id))).toBe(404);
    expect(await status(h.exports.get(asked, id))).toBe(200);
  });
});
