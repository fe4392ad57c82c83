import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator, sql, type Kysely } from 'kysely';
import { describe, expect, inject, it } from 'vitest';
import { forEachBackend } from '@/tests/support/backends';
import { createDatabase } from '@/tests/support/postgres';
import Database from 'better-sqlite3';
import { historyRow } from '../cdr/record-columns';
import { createJobRecord } from '../exports/job-record';
import { cdrSchema } from '../cdr/schema';
import { scopeOf } from '../history/scope';
import { sampleCdr } from '../upstream/test-fixtures';
import type { HistoryRecordRow } from '../history/store/history-store';
import { packBefore0040, storeBefore0040 } from '@/tests/support/history-before-0040';
import { checkTextIndex } from '@/tests/support/text-index';
import { openStore } from '../root/open-store';
import { migrate } from './migrate';
import { migrationsFor } from './migrations';
import { exportRowsByTimeMigration } from './migrations/0023-export-rows-by-time';
import { openDatabase } from './open-database';
import type { Database as StoreSchema, SqlDialect } from './schema';

/** Every table the schema types declare (lib/db/schema.ts), which the migrations must create. */
const TABLES = [
  'cache_pages',
  'cache_records',
  'ended_sessions',
  'export_file_chunks',
  'export_files',
  'export_jobs',
  'export_rows',
  'governor_waiters',
  'history_body_blocks',
  'history_day_packs',
  'history_days',
  'history_records',
  'history_results',
  'history_rollups_daily',
  'history_rollups_facets',
  'history_rollups_hourly',
  'history_scopes',
  'history_settings',
  'history_staged_pages',
  'leases',
  'reconcile_jobs',
  'reconcile_rows',
  'reconcile_tasks',
  'sessions',
  'sign_in_attempts',
  'sign_in_known_addresses',
  'team_accounts',
  'team_audit',
  'team_people',
  'upstream_blocks',
  'upstream_calls',
  'upstream_page_size',
];
/** The local history's data: in SQLite, its own file (lib/db/history-file.ts). */
const DATA_TABLES = [
  'history_body_blocks',
  'history_day_packs',
  'history_records',
  'history_rollups_daily',
  'history_rollups_facets',
  'history_rollups_hourly',
  'history_scopes',
];
/** SQLite's free-text index of the local history: a table per scope and month once records come, and these. */
const SQLITE_TEXT_INDEX = ['history_text_months', 'history_text_pending'];
const SQLITE_HISTORY_FILE = [...DATA_TABLES, ...SQLITE_TEXT_INDEX].sort();
const tablesOf = (dialect: string) => (dialect === 'sqlite' ? TABLES.filter((t) => !DATA_TABLES.includes(t)) : TABLES);
const ALL = Object.keys(migrationsFor('postgres'));

const SCOPE = scopeOf({ apiKey: 'demo', enterpriseId: null }).key;

/** Applies the migrations up to `last` only: the store as a version of then left it. */
async function migrateUpTo(db: Kysely<StoreSchema>, dialect: SqlDialect, last: string): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrationsFor(dialect) },
    allowUnorderedMigrations: true,
  });
  expect((await migrator.migrateTo(last)).error).toBeUndefined();
}

/**
 * A SQLite store migrated up to `lastBefore`, holding `rows` with the first one's search text as
 * the copies of then kept it (`oldText`), in the text index; then opened as a server opens it
 * (every migration run) for `check`, with a count of a free-text search over their day.
 */
async function afterUpgrade(
  lastBefore: string,
  rows: HistoryRecordRow[],
  oldText: string,
  check: (search: (text: string) => Promise<number>) => Promise<void>,
): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sms-upgrade-'));
  try {
    const before = await openDatabase({ dataDir: dir });
    try {
      await migrateUpTo(before.db, 'sqlite', lastBefore);
      await storeBefore0040(before.db, 'sqlite', SCOPE, [
        { ...rows[0]!, search_text: oldText.replace(/\n$/, '') },
        ...rows.slice(1),
      ]);
    } finally {
      await before.close();
    }
    const store = await openStore({ dataDir: dir });
    try {
      const day = { from: Date.UTC(2026, 10, 1), to: Date.UTC(2026, 10, 2) - 1 };
      await check((text) =>
        store.history.count({ scope: SCOPE, ranges: [day], where: [], order: 'asc' as const, text }),
      );
      await store.history.settled();
      await checkTextIndex(store.db);
    } finally {
      await store.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('migrations', () => {
  forEachBackend((open, dialect) => {
    it('create every table of the store, and a second run applies nothing', async () => {
      const store = await open();
      const tables = (await store.db.introspection.getTables()).map((t) => t.name).sort();
      expect(tables).toEqual(tablesOf(dialect));
      if (dialect === 'sqlite') {
        const { rows } = await sql<{
          name: string;
        }>`select name from history.sqlite_master where type = 'table' and name not like 'sqlite%' order by name`.execute(
          store.db,
        );
        expect(rows.map((r) => r.name)).toEqual(SQLITE_HISTORY_FILE);
      }
      expect(await migrate(store.db)).toEqual([]);
    });

    if (dialect === 'sqlite')
      it('read a page sorted by price from its index alone, ties by trx_id included (0043)', async () => {
        const { db } = await open();
        for (const dir of ['asc', 'desc'] as const) {
          const nulls = dir === 'desc' ? 'nulls last' : 'nulls first';
          // As lib/history/store/search-sql.ts reads it (byOrder: the range only checked).
          const { rows } = await sql<{ detail: string }>`explain query plan select id from history_records
            where scope_no = 1 and +received_ms between 0 and 9999999999999
            order by ${sql.raw(`price_units ${dir} ${nulls}, received_ms ${dir}, trx_id ${dir}`)} limit 25 offset 24975`.execute(
            db,
          );
          const plan = rows.map((r) => r.detail).join('\n');
          expect(plan).toContain('USING COVERING INDEX history_records_price');
          expect(plan).not.toContain('TEMP B-TREE');
        }
      });

    if (dialect === 'postgres') {
      it('keep epoch milliseconds in bigint columns', async () => {
        const { db } = await open();
        const { rows } = await sql<{ table_name: string; column_name: string; data_type: string }>`
          select table_name, column_name, data_type from information_schema.columns
          where table_schema = 'public' and (column_name in ('at', 'until', 'bytes') or column_name like '%\\_at' escape '\\')`.execute(
          db,
        );
        expect(rows.length).toBeGreaterThanOrEqual(12);
        expect(rows.filter((r) => r.data_type !== 'bigint')).toEqual([]);
      });

      it('read an order by price or latency from its index in either direction, no sort (0043)', async () => {
        const { db } = await open();
        // The order of a sorted search (lib/history/store/search-sql.ts pageIds): absent values as the
        // smallest, then received time and trx_id; with sequential reads set aside (the table is empty).
        const planOf = async (column: string, dir: 'asc' | 'desc') =>
          db.transaction().execute(async (trx) => {
            await sql`set local enable_seqscan = off`.execute(trx);
            const nulls = dir === 'desc' ? 'nulls last' : 'nulls first';
            const { rows } = await sql<{ 'QUERY PLAN': string }>`explain select id from history_records
              where scope_no = 1 and received_ms between 0 and 9999999999999
              order by ${sql.raw(`${column} ${dir} ${nulls}, received_ms ${dir}, trx_id ${dir}`)} limit 25 offset 24975`.execute(
              trx,
            );
            return rows.map((r) => r['QUERY PLAN']).join('\n');
          });
        for (const [column, index] of [
          ['price_units', 'history_records_price'],
          ['latency_ms', 'history_records_latency'],
        ] as const)
          for (const dir of ['asc', 'desc'] as const) {
            const plan = await planOf(column, dir);
            expect(plan).toContain(`Index Only Scan${dir === 'desc' ? ' Backward' : ''} using ${index}`);
            expect(plan).not.toMatch(/Sort/);
          }
      });
    }
  });

  it('run once when two instances start together on a fresh PostgreSQL database', async () => {
    // Several fresh databases, so the two starts really race (each time on tables not yet there).
    for (let round = 0; round < 3; round += 1) {
      const database = await createDatabase(inject('postgresAdminUrl'), 'migrate_race');
      try {
        const instances = await Promise.all([
          openDatabase({ databaseUrl: database.url, dataDir: '' }),
          openDatabase({ databaseUrl: database.url, dataDir: '' }),
        ]);
        try {
          const applied = await Promise.all(instances.map((i) => migrate(i.db)));
          expect(applied.flat()).toEqual(ALL);
          const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
            instances[0]!.db,
          );
          expect(rows.map((r) => r.name)).toEqual(ALL);
          expect((await instances[1]!.db.introspection.getTables()).map((t) => t.name).sort()).toEqual(TABLES);
        } finally {
          await Promise.all(instances.map((i) => i.close()));
        }
      } finally {
        await database.drop();
      }
    }
  });

  it('give the exports made before their owner (API key and enterprise), from their own record', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sms-owner-'));
    try {
      const before = await openDatabase({ dataDir: dir });
      try {
        await migrateUpTo(before.db, 'sqlite', '0017-text-index-when-idle');
        for (const [id, account, enterpriseId] of [
          ['j1', 'support', 'ent-minato'],
          ['j2', 'demo', null],
        ] as const) {
          await sql`insert into export_jobs (id, account, state, created_at, expires_at, data) values (${id}, ${account}, 'done', 0, null, ${JSON.stringify({ id, account, enterpriseId })})`.execute(
            before.db,
          );
        }
      } finally {
        await before.close();
      }
      const store = await openStore({ dataDir: dir });
      try {
        const owners = await store.db.selectFrom('export_jobs').select(['id', 'owner']).orderBy('id').execute();
        expect(owners).toEqual([
          { id: 'j1', owner: scopeOf({ apiKey: 'support', enterpriseId: 'ent-minato' }).key },
          { id: 'j2', owner: scopeOf({ apiKey: 'demo', enterpriseId: null }).key },
        ]);
      } finally {
        await store.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each(['sqlite', 'postgres'] as const)(
    'keep the team people seen before 0044, with no language until they pick one (%s)',
    async (dialect) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sms-people-'));
      const database =
        dialect === 'postgres' ? await createDatabase(inject('postgresAdminUrl'), 'person_locale') : null;
      try {
        const before = await openDatabase({ databaseUrl: database?.url, dataDir: dir });
        try {
          await migrateUpTo(before.db, dialect, '0043-history-order-indexes');
          await sql`insert into team_people (id, name, email, role, first_seen_at, last_seen_at) values ('aiko', 'Aiko', null, 'sms-support', 1, 2)`.execute(
            before.db,
          );
        } finally {
          await before.close();
        }
        const store = await openStore(database ? { DATABASE_URL: database.url, dataDir: dir } : { dataDir: dir });
        try {
          const people = () => store.db.selectFrom('team_people').select(['id', 'name', 'locale']).execute();
          expect(await people()).toEqual([{ id: 'aiko', name: 'Aiko', locale: null }]);
          await store.db.updateTable('team_people').set({ locale: 'en' }).where('id', '=', 'aiko').execute();
          expect(await people()).toEqual([{ id: 'aiko', name: 'Aiko', locale: 'en' }]);
        } finally {
          await store.close();
        }
      } finally {
        await database?.drop();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it.each(['sqlite', 'postgres'] as const)(
    'keep the rows of an export running across the upgrade that orders them by received time (%s): its records are still found once, new rows numbered after every id handed out',
    async (dialect) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sms-rows-'));
      const database = dialect === 'postgres' ? await createDatabase(inject('postgresAdminUrl'), 'rows_by_time') : null;
      const where = { databaseUrl: database?.url, dataDir: dir };
      try {
        const job = createJobRecord({
          id: 'running',
          account: { apiKey: 'demo', sid: 'sid-demo', enterpriseId: null },
          frozen: {
            query: {
              from: new Date(0),
              to: new Date(86_400_000),
              tz: 'UTC',
              sortOrder: 'asc',
              sort: 'date_received',
              filters: {},
            },
            requestedTo: null,
          },
          columns: ['trx_id'],
          pageSize: 100,
          now: 0,
        });
        const before = await openDatabase(where);
        try {
          await migrateUpTo(before.db, dialect, '0022-ended-sessions');
          await sql`insert into export_jobs (id, account, owner, state, created_at, expires_at, data) values ('running', 'demo', 'o', 'running', 0, null, ${JSON.stringify(job)})`.execute(
            before.db,
          );
          for (const trx of ['a', 'b', 'c']) {
            await sql`insert into export_rows (job_id, trx_id, win, body) values ('running', ${trx}, 1, ${JSON.stringify({ trx_id: trx })})`.execute(
              before.db,
            );
          }
          // The highest id handed out goes with its row: it is not handed out again.
          await sql`delete from export_rows where trx_id = 'c'`.execute(before.db);
        } finally {
          await before.close();
        }
        const store = await openStore(database ? { DATABASE_URL: database.url, dataDir: dir } : { dataDir: dir });
        try {
          const page = ['b', 'c', 'd'].map((trxId, i) => ({
            trxId,
            receivedMs: 60_000 * (i + 1),
            body: JSON.stringify({ trx_id: trxId }),
          }));
          expect(await store.exportJobs.commitPage(job, 1, page, () => undefined)).toEqual({
            inserted: 2,
            sameWindow: 1,
            otherWindow: 0,
            claimed: 0,
          });
          const stored = await store.exportJobs.rowBatch('running', 0, 10);
          expect(stored.map((r) => [Number(r.id), (JSON.parse(r.body) as { trx_id: string }).trx_id])).toEqual([
            [1, 'a'],
            [2, 'b'],
            [4, 'c'],
            [5, 'd'],
          ]);
        } finally {
          await store.close();
        }
      } finally {
        await database?.drop();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it('leave export_rows as it was when a start stops half-way through rebuilding it (SQLite), and rebuild it at the next start', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sms-rows-stop-'));
    try {
      const before = await openDatabase({ dataDir: dir });
      try {
        await migrateUpTo(before.db, 'sqlite', '0022-ended-sessions');
        await sql`insert into export_rows (job_id, trx_id, win, body) values ('running', 'a', 1, '{}'), ('running', 'b', 1, '{}')`.execute(
          before.db,
        );
        // The process stops (here: fails) after the copy, as it drops the old table.
        const stopsAtDrop = before.db.withPlugin({
          transformQuery(args) {
            if (args.node.kind === 'DropTableNode') throw new Error('the process stopped');
            return args.node;
          },
          transformResult: async (args) => args.result,
        });
        await expect(exportRowsByTimeMigration('sqlite').up(stopsAtDrop as never)).rejects.toThrow(
          'the process stopped',
        );
        const tables = await sql<{
          name: string;
        }>`select name from sqlite_master where type = 'table' and name like 'export_rows%'`.execute(before.db);
        expect(tables.rows.map((r) => r.name)).toEqual(['export_rows']);
      } finally {
        await before.close();
      }
      const store = await openStore({ dataDir: dir });
      try {
        expect((await store.exportJobs.rowBatch('running', 0, 10)).map((r) => r.id)).toEqual([1, 2]);
      } finally {
        await store.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keep a page an instance of the version before writes while PostgreSQL rebuilds export_rows (a rolling upgrade)', async () => {
    const database = await createDatabase(inject('postgresAdminUrl'), 'rows_rolling');
    try {
      const old = await openDatabase({ databaseUrl: database.url, dataDir: '' });
      const migrating = await openDatabase({ databaseUrl: database.url, dataDir: '' });
      try {
        await migrateUpTo(old.db, 'postgres', '0022-ended-sessions');
        // Other exports' rows, enough for the copy to take a while.
        await sql`insert into export_rows (job_id, trx_id, win, body) select 'other', 'r' || n, 1, repeat('x', 200) from generate_series(1, 300000) as n`.execute(
          old.db,
        );
        const rebuilt = migrate(migrating.db, 'postgres');
        // The old instance's page, written once the rebuild has begun.
        await new Promise((resolve) => setTimeout(resolve, 150));
        await sql`insert into export_rows (job_id, trx_id, win, body) values ('running', 'late', 1, '{}')`.execute(
          old.db,
        );
        await rebuilt;
        const { rows } = await sql<{
          n: string;
        }>`select count(*) as n from export_rows where job_id = 'running' and trx_id = 'late'`.execute(old.db);
        expect(Number(rows[0]!.n)).toBe(1);
      } finally {
        await Promise.all([old.close(), migrating.close()]);
      }
    } finally {
      await database.drop();
    }
  }, 60_000);

  it('move a SQLite copy of the local history made before into the history file, every record still found', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sms-move-'));
    try {
      const scope = scopeOf({ apiKey: 'demo', enterpriseId: null }).key;
      const rows = Array.from({ length: 30 }, (_, i) =>
        historyRow(
          cdrSchema.parse(
            sampleCdr({
              trx_id: `${i}`.padStart(32, 'c'),
              date_received: `2026-11-01T0${i % 10}:00:00.000+0000`,
              message_body: i === 7 ? '配達予定のお知らせ' : `code ${i}`,
            }),
          ),
        )!,
      );
      // The store as it was before the history's data had a file of its own: everything in dashboard.sqlite.
      const before = await openDatabase({ dataDir: dir });
      try {
        await migrateUpTo(before.db, 'sqlite', '0015-text-index-vocabulary');
        await storeBefore0040(before.db, 'sqlite', scope, rows);
        await packBefore0040(before.db, scope, '2026-11-01');
        await before.db
          .insertInto('history_days')
          .values({
            scope,
            day: '2026-11-01',
            state: 'complete',
            progress: '{}',
            records: 30,
            calls: 1,
            updated_at: 0,
            completed_at: 0,
          })
          .execute();
        const inMain = await sql<{ n: number }>`select count(*) as n from main.history_records`.execute(before.db);
        expect(Number(inMain.rows[0]!.n)).toBe(30);
      } finally {
        await before.close();
      }

      const store = await openStore({ dataDir: dir });
      try {
        const main = await sql<{
          name: string;
        }>`select name from main.sqlite_master where name like 'history_%' and type = 'table' order by name`.execute(
          store.db,
        );
        expect(main.rows.map((r) => r.name)).toEqual([
          'history_days',
          'history_results',
          'history_settings',
          'history_staged_pages',
        ]);
        const moved = await sql<{ n: number }>`select count(*) as n from history.history_records`.execute(store.db);
        expect(Number(moved.rows[0]!.n)).toBe(30);
        const day = { from: Date.UTC(2026, 10, 1), to: Date.UTC(2026, 10, 2) - 1 };
        const search = (text?: string) => ({
          scope,
          ranges: [day],
          where: [],
          order: 'asc' as const,
          ...(text ? { text } : {}),
        });
        expect(await store.history.count(search())).toBe(30);
        expect(await store.history.count(search('配達'))).toBe(1);
        expect(await store.history.count(search('お知らせ'))).toBe(1);
        expect(await store.history.count(search('code 2'))).toBe(11); // 2 and 20–29
        expect(
          (await store.history.page(search('配達'), 0, 5)).map((b) => (JSON.parse(b) as { trx_id: string }).trx_id),
        ).toEqual([rows[7]!.trx_id]);
        await store.history.settled();
        await checkTextIndex(store.db);
        // Deleting a record still takes its terms out of the index at once (secure-delete kept).
        await store.history.deleteScope(scope);
        expect(await store.history.count(search('配達'))).toBe(0);
      } finally {
        await store.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('write again the search text of encrypted records copied before, without their ciphertext', async () => {
    const record = (i: number, encrypted: boolean) =>
      historyRow(
        cdrSchema.parse(
          sampleCdr({
            trx_id: `${i}`.padStart(32, 'e'),
            date_received: `2026-11-01T0${i}:00:00.000+0000`,
            msg_encrypted: encrypted ? 'true' : 'false',
            message_body: encrypted ? 'QabcRk9v' : 'abc plain',
            unencrypted_message_body: encrypted ? '認証コード' : '',
          }),
        ),
      )!;
    const rows = [record(1, true), record(2, false)];
    // As the copies before kept it: the ciphertext searched too.
    await afterUpgrade(
      '0020-sign-in-known-addresses',
      rows,
      `${rows[0]!.trx_id}\n819012345678\nsakuramart\nqabcrk9v\n認証コード\n`,
      async (search) => {
        // "abc" is in the ciphertext (QabcRk9v) and in the plain message: only the plain one is found.
        expect(await search('abc')).toBe(1);
        expect(await search('qabcr')).toBe(0);
        expect(await search('認証コード')).toBe(1);
      },
    );
  });

  it('say so when the data was upgraded by a newer version, and change nothing', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sms-newer-'));
    try {
      const opened = await openDatabase({ dataDir: dir });
      try {
        await migrate(opened.db);
        // A migration this version does not know, as a newer version would have left it.
        await sql`insert into kysely_migration (name, timestamp) values ('9999-from-the-future', '2027-01-01T00:00:00.000Z')`.execute(
          opened.db,
        );
        await expect(migrate(opened.db)).rejects.toThrow(
          /upgraded by a newer version of the dashboard \(its migration 9999-from-the-future\).*Nothing was changed/,
        );
      } finally {
        await opened.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('adopt a SQLite file written by the stores before Kysely, keeping its data', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sms-adopt-'));
    try {
      // The file as the stores before Kysely wrote it: their own CREATE TABLEs, and some rows.
      const old = new Database(path.join(dir, 'dashboard.sqlite'));
      old.exec(`
        CREATE TABLE upstream_calls (id INTEGER PRIMARY KEY AUTOINCREMENT, account TEXT NOT NULL, at INTEGER NOT NULL, kind TEXT NOT NULL, outcome TEXT);
        CREATE TABLE sessions (sid TEXT PRIMARY KEY, api_key TEXT NOT NULL, enterprise_id TEXT, sealed_secret TEXT NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL);
        INSERT INTO upstream_calls (account, at, kind) VALUES ('demo', 1700000000000, 'query');
        INSERT INTO sessions VALUES ('s1', 'demo', NULL, 'x', 0, 2000000000000);
      `);
      old.close();

      const opened = await openDatabase({ dataDir: dir });
      try {
        expect(await migrate(opened.db)).toEqual(Object.keys(migrationsFor('sqlite')));
        expect(await opened.db.selectFrom('upstream_calls').select(['account', 'at', 'class']).execute()).toEqual([
          { account: 'demo', at: 1_700_000_000_000, class: 'interactive' },
        ]);
        expect(await opened.db.selectFrom('sessions').select('sid').execute()).toEqual([{ sid: 's1' }]);
      } finally {
        await opened.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
