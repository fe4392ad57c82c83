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
    await expect(sql`select 9007199254740993::bigint as big`.execute(opened.db)).rejects.toThrow(
      /does not fit a JS number/,
    );
    await expect(sql`select 9007199254740993::numeric as big`.execute(opened.db)).rejects.toThrow(
      /does not fit a JS number/,
    );
    // The pool is still usable afterwards.
    expect((await sql<{ one: number }>`select 1 as one`.execute(opened.db)).rows).toEqual([{ one: 1 }]);
  });

  it('has the server give up on a connection gone silent within about a minute (a dead host frees the governor’s slot)', async () => {
    const { rows } = await sql<{ idle: string; interval: string; count: string }>`
      select current_setting('tcp_keepalives_idle') as idle, current_setting('tcp_keepalives_interval') as interval, current_setting('tcp_keepalives_count') as count`.execute(
      opened.db,
    );
    expect(rows[0]).toEqual({ idle: '30', interval: '10', count: '3' });
  });

  it('survives a connection that breaks while it is taken from the pool between two queries', async () => {
    const client = await opened.pool!.connect();
    const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
    // Ended from another connection, as a server restart or a proxy would: unheard, the 'error'
    // event of a taken connection would end the process (vitest fails the run on it).
    await sql`select pg_terminate_backend(${rows[0]!.pid})`.execute(opened.db);
    await expect
      .poll(async () =>
        client.query('select 1').then(
          () => 'alive',
          () => 'broken',
        ),
      )
      .toBe('broken');
    // Its 'error' event was heard: in a plain Node process one nobody hears is an uncaught
    // exception (vitest keeps it from failing this run, so the listener is what is checked).
    expect(client.listenerCount('error')).toBeGreaterThan(0);
    client.release(true);
    expect((await sql<{ one: number }>`select 1 as one`.execute(opened.db)).rows).toEqual([{ one: 1 }]);
  });

  it('names itself to the server', async () => {
    const { rows } = await sql<{
      name: string;
    }>`select application_name as name from pg_stat_activity where pid = pg_backend_pid()`.execute(opened.db);
    expect(rows).toEqual([{ name: 'sms-history-dashboard' }]);
  });
});
