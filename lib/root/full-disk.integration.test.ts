/**
 * A full disk under the store, on a real small disk (a tmpfs; SQLite's data folder on it, or a
 * PostgreSQL tablespace holding the test database): a person's search that needs a write is
 * answered 507 with words, not a generic 500; an export's page already paid for when the disk
 * filled is held in memory and stored once space is back, not paid again; and everything goes on by
 * itself once the disk is freed.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { exportRequest } from '../../tests/support/parsed';
import { BACKENDS } from '../../tests/support/backends';
import { mountSmallDisk, smallDiskAvailable, type SmallDisk } from '../../tests/support/small-disk';
import { startHarness, type Harness } from '../../tests/support/service-harness';
import { authSecret } from '../auth/auth-secret';
import { seal } from '../auth/secret-box';
import { parseQuery } from '../query/query';
import { formatWallClock } from '../time/zones';
import { toProblem } from './error-problems';

const ROOMY = { UPSTREAM_LIMIT_PER_MINUTE: '1000', UPSTREAM_LIMIT_PER_HOUR: '10000', UPSTREAM_LIMIT_PER_DAY: '100000' };
const HOUR = 3600_000;

async function admin<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function until(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(!smallDiskAvailable()).each(BACKENDS)('a full disk under the store on %s', (dialect) => {
  let disk: SmallDisk;
  let h: Harness;
  let dropDatabase = async (): Promise<void> => undefined;

  beforeAll(async () => {
    disk = mountSmallDisk(dialect === 'sqlite' ? 24 : 48);
    const env: Record<string, string> = { ...ROOMY };
    let dataDir: string | undefined;
    if (dialect === 'sqlite') dataDir = path.join(disk.dir, 'data');
    else {
      // The test database's tables live on the small disk (PostgreSQL's own files do not).
      const adminUrl = inject('postgresAdminUrl');
      const location = path.join(disk.dir, 'pg');
      fs.mkdirSync(location);
      execFileSync('chown', ['postgres:postgres', location]);
      const name = `full_${process.pid}`;
      await admin(adminUrl, async (c) => {
        await c.query(`CREATE TABLESPACE ${name} LOCATION '${location}'`);
        await c.query(`CREATE DATABASE ${name} TABLESPACE ${name}`);
      });
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      env.DATABASE_URL = url.toString();
      dropDatabase = () =>
        admin(adminUrl, async (c) => {
          await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          await c.query(`DROP TABLESPACE IF EXISTS ${name}`);
        });
    }
    h = await startHarness({ env, sim: { days: 8, perDay: 1500, latencyMs: 600 }, ...(dataDir ? { dataDir } : {}) });
    await h.store.vault.put({
      sid: 'sid-fuji',
      apiKey: 'fuji',
      enterpriseId: null,
      sealedSecret: seal('fuji-secret', authSecret()),
      createdAt: Date.now(),
      expiresAt: Date.now() + 3600_000,
    });
  }, 60_000);

  afterAll(async () => {
    disk?.free();
    await h?.close();
    await dropDatabase();
    disk?.unmount();
  });

  /**
   * Fills the disk. SQLite would still write into its log's space already taken: the log is emptied
   * first, so every write fails, as on a disk full for a while. PostgreSQL writes small rows into
   * room left in its tables' pages (and room freed as old row versions are pruned): only what needs
   * a new page (a page of records) fails there.
   */
  async function fillUp(): Promise<void> {
    if (dialect === 'sqlite') await sql`pragma wal_checkpoint(TRUNCATE)`.execute(h.store.db);
    disk.fill();
  }

  it('answers 507 with words, holds the page it paid for, and goes on once space is back', async () => {
    const account = { apiKey: 'fuji', enterpriseId: null, sid: 'sid-fuji' };
    const day = new Date(Date.now() - 5 * 24 * HOUR).toISOString().slice(0, 10);
    const created = await h.exports.create(
      account,
      exportRequest(
        {
          'date-from': `${day} 00:00:00`,
          'date-to': `${day} 23:59:59`,
          tz: 'UTC',
        },
        account.enterpriseId,
      ),
    );
    if (created.kind !== 'job') throw new Error('expected a job');
    const id = created.job.id;
    const queries = () => h.sim.stats().accounts.fuji?.queryRequests ?? 0;
    h.exportRunner.start();

    // The first page is stored; the disk fills while the second page's call is in flight.
    await until(async () => (await h.exports.get(account, id)).progress.recordsFetched >= 100, 20_000, 'a first page');
    await until(async () => (h.sim.stats().accounts.fuji?.inFlight ?? 0) > 0, 20_000, 'a call in flight');
    await fillUp();
    const paidWhenFull = queries();
    await new Promise((r) => setTimeout(r, 5_000));
    // Nothing more is paid while the disk is full: the held page is not asked for again.
    expect(queries()).toBe(paidWhenFull);

    // A person's search whose writes fail is told why, with a status that says so (SQLite: the
    // ledger's row before the call; PostgreSQL may still find room for it and answer).
    const parsed = parseQuery(
      new URLSearchParams({
        'date-from': formatWallClock(new Date(Date.now() - 6 * 24 * HOUR), 'UTC'),
        'date-to': formatWallClock(new Date(Date.now() - 6 * 24 * HOUR + HOUR), 'UTC'),
      }),
    );
    if (!parsed.ok) throw new Error('bad query');
    const answered = await h.transactions.page(h.account('minato'), parsed.query).then(
      () => null,
      (e: unknown) => e,
    );
    if (dialect === 'sqlite' || answered !== null) {
      const { problem, headers } = toProblem(answered, 'en');
      expect(problem.status).toBe(507);
      expect(problem.type).toBe('/problems/store-full');
      expect(problem.detail).toMatch(/no space left/i);
      expect(headers['Retry-After']).toBe('60');
    }

    disk.free();
    await until(async () => (await h.exports.get(account, id)).state === 'done', 120_000, 'the export to finish');
    const job = await h.exports.get(account, id);
    // Every page paid for once: the calls the simulator answered are the export's pages.
    const pages = Math.ceil((job.progress.totalExpected ?? 0) / 100);
    expect(pages).toBeGreaterThan(2);
    expect(queries()).toBe(pages);
    expect(job.progress.callsSpent).toBe(pages);
    expect(job.countCheck).toMatchObject({ expected: job.progress.totalExpected, written: job.progress.totalExpected });
  }, 200_000);
});
