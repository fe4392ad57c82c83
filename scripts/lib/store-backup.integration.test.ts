/**
 * `npm run backup` and `npm run restore` as an operator runs them (the scripts, in processes of
 * their own), against a store in use: a backup taken while an export and the local history's copy
 * are half-way, restored, holds every finished export (its file byte for byte), every day the copy
 * had completed (with its records), and the sessions; the half-done export goes on and finishes.
 * Restore refuses while a server holds the data folder.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { exportRequest } from '../../tests/support/parsed';
import { startHarness, type Harness } from '../../tests/support/service-harness';
import { authSecret } from '../../lib/auth/auth-secret';
import { seal } from '../../lib/auth/secret-box';
import { scopeOf } from '../../lib/history/scope';
import { addDays, dayOf, startOf } from '../../lib/history/days';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');
const ROOMY = { UPSTREAM_LIMIT_PER_MINUTE: '1000', UPSTREAM_LIMIT_PER_HOUR: '10000', UPSTREAM_LIMIT_PER_DAY: '100000' };
const DAY = 86_400_000;

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sms-backup-test-'));
const dataDir = path.join(work, 'data');
const archive = path.join(work, 'backup.tar');
const harnesses: Harness[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.close();
  fs.rmSync(work, { recursive: true, force: true });
});

/** Runs `npm run <script> -- <file>` as the operator would (the script itself, with this DATA_DIR). */
async function script(
  name: 'backup' | 'restore',
  file: string,
  folder = dataDir,
): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), '--conditions=react-server', `scripts/${name}.ts`, file],
      { cwd: ROOT, env: { ...process.env, DATA_DIR: folder, LOG_LEVEL: 'error' } },
    );
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

async function until(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function fileBytes(h: Harness, account: Parameters<Harness['exports']['file']>[0], id: string) {
  const { stream } = await h.exports.file(account, id);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function start(): Promise<Harness> {
  const h = await startHarness({ dataDir, env: ROOMY, sim: { days: 10, perDay: 1500, latencyMs: 250 } });
  harnesses.push(h);
  return h;
}

describe('backup and restore of the embedded store', () => {
  it('restores a backup taken mid-export and mid-sync with finished exports, complete days and sessions intact', async () => {
    const h = await start();
    const now = Date.now();
    for (const apiKey of ['fuji', 'demo'])
      await h.store.vault.put({
        sid: `sid-${apiKey}`,
        apiKey,
        enterpriseId: null,
        sealedSecret: seal(`${apiKey}-secret`, authSecret()),
        createdAt: now,
        expiresAt: now + 3600_000,
      });
    const fuji = { apiKey: 'fuji', enterpriseId: null, sid: 'sid-fuji' };
    const demo = { ...h.account('demo', null), sid: 'sid-demo' };
    const day = (n: number) => addDays(dayOf(now), -n);

    // A finished export.
    const small = await h.exports.create(
      fuji,
      exportRequest({ 'date-from': `${day(6)} 00:00:00`, 'date-to': `${day(6)} 03:00:00` }, fuji.enterpriseId),
    );
    if (small.kind !== 'job') throw new Error('expected a job');
    h.exportRunner.start();
    await until(async () => (await h.exports.get(fuji, small.job.id)).state === 'done', 30_000, 'the first export');
    const finishedFile = await fileBytes(h, fuji, small.job.id);

    // A large export under way, and the local history's copy under way.
    const large = await h.exports.create(
      fuji,
      exportRequest({ 'date-from': `${day(9)} 00:00:00`, 'date-to': `${day(4)} 23:59:59` }, fuji.enterpriseId),
    );
    if (large.kind !== 'job') throw new Error('expected a job');
    await h.history.put(demo, { enabled: true, since: day(8) });
    h.syncRunner.start();
    await until(
      async () =>
        (await h.exports.get(fuji, large.job.id)).progress.recordsFetched > 500 &&
        (await h.history.get(demo)).days.some((d) => d.state === 'complete'),
      60_000,
      'both to be half-way',
    );

    const backup = await script('backup', archive);
    expect(backup.out).toMatch(/Backed up/);
    expect(backup.code).toBe(0);
    expect(fs.statSync(archive).mode & 0o777).toBe(0o600);

    // Not while a server holds the folder.
    const refused = await script('restore', archive);
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(/A dashboard is running on .* Stop it .*Nothing was changed/);

    await h.close();
    harnesses.splice(harnesses.indexOf(h), 1);
    const restored = await script('restore', archive);
    expect(restored.code).toBe(0);
    expect(restored.out).toMatch(/Restored the backup of .* The files it replaced are in .*replaced-/);

    const r = await start();
    // Sessions: still signed in.
    expect((await r.store.vault.get('sid-fuji', Date.now()))?.apiKey).toBe('fuji');
    expect((await r.store.vault.get('sid-demo', Date.now()))?.apiKey).toBe('demo');
    // The finished export, byte for byte.
    expect((await r.exports.get(fuji, small.job.id)).state).toBe('done');
    expect((await fileBytes(r, fuji, small.job.id)).equals(finishedFile)).toBe(true);
    // Every day the copy had completed, with every record of it.
    const days = await r.store.history.listDays(scopeOf(demo).key);
    const complete = days.filter((d) => d.state === 'complete');
    expect(complete.length).toBeGreaterThan(0);
    for (const d of complete) {
      const from = startOf(d.day);
      const expected = r.sim.dataset.query({ from, to: from + DAY - 1, enterpriseId: 'ent-sakura', limit: 0 }).total;
      expect(d.records, d.day).toBe(expected);
    }
    // The export that was half-way goes on from where the backup left it, to the end.
    const atBackup = await r.exports.get(fuji, large.job.id);
    expect(atBackup.state).not.toBe('done');
    expect(atBackup.progress.recordsFetched).toBeGreaterThan(0);
    r.exportRunner.start();
    await until(async () => (await r.exports.get(fuji, large.job.id)).state === 'done', 90_000, 'the large export');
    const done = await r.exports.get(fuji, large.job.id);
    expect(done.countCheck).toMatchObject({
      expected: done.progress.totalExpected,
      written: done.progress.totalExpected,
    });
  }, 180_000);

  it('says what is wrong with a file that is not a backup', async () => {
    const bogus = path.join(work, 'not-a-backup.tar');
    fs.writeFileSync(bogus, 'hello');
    const res = await script('restore', bogus, path.join(work, 'elsewhere'));
    expect(res.code).toBe(1);
    expect(res.out).toMatch(/is not a backup of this dashboard/);
  });
});
