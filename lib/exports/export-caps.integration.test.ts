/**
 * The bounds on an account's exports hold as a single step, on both backends: thirty exports asked
 * at once — spread over three instances sharing one PostgreSQL — leave exactly MAX_ACTIVE_EXPORTS
 * active, the rest refused with words; and an account whose export files reach
 * EXPORT_MAX_BYTES_PER_ACCOUNT is refused a new one (507, saying what to delete) until it deletes one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { exportRequest } from '../../tests/support/parsed';
import { BACKENDS } from '../../tests/support/backends';
import { startHarnessOn } from '../../tests/support/harness-on';
import type { Harness } from '../../tests/support/service-harness';
import { authSecret } from '../auth/auth-secret';
import { seal } from '../auth/secret-box';
import { ProblemError } from '../http/problem';

const ROOMY = { UPSTREAM_LIMIT_PER_MINUTE: '1000', UPSTREAM_LIMIT_PER_HOUR: '10000', UPSTREAM_LIMIT_PER_DAY: '100000' };
const harnesses: Harness[] = [];
afterEach(async () => {
  // The first one drops the PostgreSQL database the others share: closed last.
  for (const h of harnesses.splice(0).reverse()) await h.close();
});

const outcome = (p: Promise<unknown>) =>
  p.then(
    () => 'created',
    (err: unknown) => (err instanceof ProblemError ? `${err.problem.status} ${err.problem.type}` : String(err)),
  );

const day = (n: number) => ({
  'date-from': `2026-08-${String(n).padStart(2, '0')} 00:00:00`,
  'date-to': `2026-08-${String(n).padStart(2, '0')} 06:00:00`,
  tz: 'UTC',
});

describe.each(BACKENDS)('export bounds on %s', (dialect) => {
  it('admits exactly MAX_ACTIVE_EXPORTS of thirty asked at once, over every instance', async () => {
    const env = { MAX_ACTIVE_EXPORTS: '5' };
    const first = await startHarnessOn(dialect, { env });
    harnesses.push(first);
    // Several instances share PostgreSQL; one SQLite folder serves one.
    const databaseUrl = first.config.DATABASE_URL;
    if (databaseUrl) for (let i = 0; i < 2; i++) harnesses.push(await startHarnessOn(dialect, { env, databaseUrl }));
    const account = { apiKey: 'fuji', enterpriseId: null, sid: 'sid-fuji' };
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        outcome(
          harnesses[i % harnesses.length]!.exports.create(
            account,
            exportRequest(day(1 + (i % 28)), account.enterpriseId),
          ),
        ),
      ),
    );
    expect(results.filter((r) => r === 'created')).toHaveLength(5);
    expect(results.filter((r) => r === '409 /problems/too-many-exports')).toHaveLength(25);
    expect(await first.store.exportJobs.activeJobs()).toHaveLength(5);
    // Another key has its own bound.
    expect(
      await outcome(
        first.exports.create({ apiKey: 'minato', enterpriseId: null, sid: 's' }, exportRequest(day(1), null)),
      ),
    ).toBe('created');
  });

  it('refuses a new export once the account’s files reach EXPORT_MAX_BYTES_PER_ACCOUNT, until one is deleted', async () => {
    const h = await startHarnessOn(dialect, { env: { ...ROOMY, EXPORT_MAX_BYTES_PER_ACCOUNT: '4096' } });
    harnesses.push(h);
    const now = Date.now();
    await h.store.vault.put({
      sid: 'sid-fuji',
      apiKey: 'fuji',
      enterpriseId: null,
      sealedSecret: seal('fuji-secret', authSecret()),
      createdAt: now,
      expiresAt: now + 3600_000,
    });
    const account = { apiKey: 'fuji', enterpriseId: null, sid: 'sid-fuji' };
    const from = new Date(now - 5 * 86_400_000).toISOString().slice(0, 10);
    const range = { 'date-from': `${from} 00:00:00`, 'date-to': `${from} 12:00:00`, tz: 'UTC' };
    const created = await h.exports.create(account, exportRequest(range, account.enterpriseId));
    if (created.kind !== 'job') throw new Error('expected a job');
    h.exportRunner.start();
    const until = Date.now() + 30_000;
    while ((await h.exports.get(account, created.job.id)).state !== 'done') {
      if (Date.now() > until) throw new Error('the export did not finish');
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await h.store.exportFiles.size(created.job.id)).toBeGreaterThan(4096);

    const refused = await h.exports
      .create(account, exportRequest(range, account.enterpriseId))
      .catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ProblemError);
    expect((refused as ProblemError).problem).toMatchObject({ status: 507, type: '/problems/export-space-full' });
    expect((refused as ProblemError).problem.detail).toMatch(/EXPORT_MAX_BYTES_PER_ACCOUNT.*Delete finished exports/);
    // Another key's space is its own.
    expect(
      await outcome(h.exports.create({ apiKey: 'minato', enterpriseId: null, sid: 's' }, exportRequest(range, null))),
    ).toBe('created');

    await h.exports.cancel(account, created.job.id);
    expect(await outcome(h.exports.create(account, exportRequest(range, account.enterpriseId)))).toBe('created');
  });
});
