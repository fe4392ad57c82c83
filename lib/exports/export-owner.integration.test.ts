/**
 * An export belongs to the account that asked for it, API key and enterprise: a key that reaches
 * several enterprises (support), signed in for another one, neither lists, reads, downloads nor
 * cancels it. Through the services, against the simulator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../tests/support/service-harness';
import { exportRequest } from '../../tests/support/parsed';
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
const status = (p: Promise<unknown>) =>
  p.then(
    () => 200,
    (err: unknown) => (err instanceof ProblemError ? err.problem.status : 500),
  );

describe('an export', () => {
  it('is its account’s, API key and enterprise', async () => {
    const created = await h.exports.create(
      asked,
      exportRequest(
        {
          'date-from': '2026-10-01 00:00:00',
          'date-to': '2026-10-02 00:00:00',
          tz: 'UTC',
        },
        asked.enterpriseId,
      ),
    );
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

  it('is refused past ten queued or running at once for one API key (they share its quota), saying why, and not for another key', async () => {
    const busy = { apiKey: 'fuji', enterpriseId: null, sid: 'sid-fuji-busy' };
    const another = { apiKey: 'minato', enterpriseId: null, sid: 'sid-minato-other' };
    for (let day = 1; day <= 10; day++) {
      const d = String(day).padStart(2, '0');
      expect(
        (
          await h.exports.create(
            busy,
            exportRequest(
              {
                'date-from': `2026-09-${d} 00:00:00`,
                'date-to': `2026-09-${d} 12:00:00`,
                tz: 'UTC',
              },
              busy.enterpriseId,
            ),
          )
        ).kind,
      ).toBe('job');
    }
    const refused = await h.exports
      .create(
        busy,
        exportRequest(
          { 'date-from': '2026-09-20 00:00:00', 'date-to': '2026-09-20 12:00:00', tz: 'UTC' },
          busy.enterpriseId,
        ),
      )
      .catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ProblemError);
    expect((refused as ProblemError).problem).toMatchObject({ status: 409, type: '/problems/too-many-exports' });
    expect((refused as ProblemError).problem.detail).toMatch(/already has 10 exports queued or running/);
    expect(
      (
        await h.exports.create(
          another,
          exportRequest(
            {
              'date-from': '2026-09-20 00:00:00',
              'date-to': '2026-09-20 12:00:00',
              tz: 'UTC',
            },
            another.enterpriseId,
          ),
        )
      ).kind,
    ).toBe('job');
  });
});
