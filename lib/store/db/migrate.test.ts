import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, inject, it } from 'vitest';
import { forEachBackend } from '@/tests/support/backends';
import { createDatabase } from '@/tests/support/postgres';
import Database from 'better-sqlite3';
import { migrate } from './migrate';
import { migrationsFor } from './migrations';
import { openDatabase } from './open-database';

/** Every table the schema types declare (lib/store/db/schema.ts), which the migrations must create. */
const TABLES = [
  'cache_pages',
  'cache_records',
  'export_file_chunks',
  'export_files',
  'export_jobs',
  'export_rows',
  'governor_waiters',
  'history_bodies',
  'history_day_packs',
  'history_days',
  'history_records',
  'history_results',
  'history_rollups_daily',
  'history_rollups_facets',
  'history_rollups_hourly',
  'history_settings',
  'leases',
  'sessions',
  'sign_in_attempts',
  'upstream_blocks',
  'upstream_calls',
];
/** SQLite's free-text index of the local history (FTS5) and its shadow tables are tables too. */
const SQLITE_TEXT_INDEX = ['history_fts', 'history_fts_config', 'history_fts_data', 'history_fts_docsize', 'history_fts_idx', 'history_fts_vocab'];
const tablesOf = (dialect: string) => (dialect === 'sqlite' ? [...TABLES, ...SQLITE_TEXT_INDEX].sort() : TABLES);
const ALL = Object.keys(migrationsFor('postgres'));

describe('migrations', () => {
  forEachBackend((open, dialect) => {
    it('create every table of the store, and a second run applies nothing', async () => {
      const store = await open();
      const tables = (await store.db.introspection.getTables()).map((t) => t.name).sort();
      expect(tables).toEqual(tablesOf(dialect));
      expect(await migrate(store.db)).toEqual([]);
    });

    if (dialect === 'postgres') {
      it('keep epoch milliseconds in bigint columns', async () => {
        const { db } = await open();
        const { rows } = await sql<{ table_name: string; column_name: string; data_type: string }>`
          select table_name, column_name, data_type from information_schema.columns
          where table_schema = 'public' and (column_name in ('at', 'until', 'bytes') or column_name like '%\\_at' escape '\\')`.execute(db);
        expect(rows.length).toBeGreaterThanOrEqual(12);
        expect(rows.filter((r) => r.data_type !== 'bigint')).toEqual([]);
      });
    }
  });

  it('run once when two instances start together on a fresh PostgreSQL database', async () => {
    // Several fresh databases, so the two starts really race (each time on tables not yet there).
    for (let round = 0; round < 3; round += 1) {
      const database = await createDatabase(inject('postgresAdminUrl'), 'migrate_race');
      try {
        const instances = await Promise.all([openDatabase({ databaseUrl: database.url, dataDir: '' }), openDatabase({ databaseUrl: database.url, dataDir: '' })]);
        try {
          const applied = await Promise.all(instances.map((i) => migrate(i.db)));
          expect(applied.flat()).toEqual(ALL);
          const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(instances[0]!.db);
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
        expect(await opened.db.selectFrom('upstream_calls').select(['account', 'at', 'class']).execute()).toEqual([{ account: 'demo', at: 1_700_000_000_000, class: 'interactive' }]);
        expect(await opened.db.selectFrom('sessions').select('sid').execute()).toEqual([{ sid: 's1' }]);
      } finally {
        await opened.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
