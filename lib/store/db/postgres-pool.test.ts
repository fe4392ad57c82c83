import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type OpenedDatabase } from './open-database';

describe('the PostgreSQL connection', () => {
  let opened: OpenedDatabase;
  beforeAll(async () => {
    // Read-only queries: the server's own database will do.
    opened = await openDatabase({ databaseUrl: inject('postgresAdminUrl'), dataDir: '' });
  });
  afterAll(() => opened.close());

  it('gives bigint and numeric back as numbers', async () => {
    const { rows } = await sql<{ at: unknown; total: unknown; n: unknown }>`
      select 1763596800000::bigint as at, sum(x) as total, count(*) as n
      from (values (9007199254740000::bigint), (991::bigint)) as v(x)`.execute(opened.db);
    expect(rows[0]).toEqual({ at: 1_763_596_800_000, total: 9_007_199_254_740_991, n: 2 });
  });

  it('fails a query whose integer a number cannot hold exactly, rather than rounding it', async () => {
    await expect(sql`select 9007199254740993::bigint as big`.execute(opened.db)).rejects.toThrow(/does not fit a JS number/);
    await expect(sql`select 9007199254740993::numeric as big`.execute(opened.db)).rejects.toThrow(/does not fit a JS number/);
    // The pool is still usable afterwards.
    expect((await sql<{ one: number }>`select 1 as one`.execute(opened.db)).rows).toEqual([{ one: 1 }]);
  });

  it('names itself to the server', async () => {
    const { rows } = await sql<{ name: string }>`select application_name as name from pg_stat_activity where pid = pg_backend_pid()`.execute(opened.db);
    expect(rows).toEqual([{ name: 'sms-history-dashboard' }]);
  });
});
