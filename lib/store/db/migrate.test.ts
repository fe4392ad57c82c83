import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, inject, it } from 'vitest';
import { forEachBackend } from '@/tests/support/backends';
import { createDatabase } from '@/tests/support/postgres';
import { createStore } from '../index';
import { migrate } from './migrate';
import { openDatabase } from './open-database';

const TABLES = ['cache_pages', 'cache_records', 'export_file_chunks', 'export_files', 'export_jobs', 'export_rows', 'sessions', 'upstream_blocks', 'upstream_calls'];

describe('migrations', () => {
  forEachBackend((open, dialect) => {
    it('create every table of the store, and a second run applies nothing', async () => {
      const store = await open();
      const tables = (await store.db.introspection.getTables()).map((t) => t.name).sort();
      expect(tables).toEqual(TABLES);
      expect(await migrate(store.db)).toEqual([]);
    });

    if (dialect === 'postgres') {
      it('keep epoch milliseconds in bigint columns', async () => {
        const { db } = await open();
        const { rows } = await sql<{ table_name: string; column_name: string; data_type: string }>`
          select table_name, column_name, data_type from information_schema.columns
          where table_schema = 'public' and (column_name in ('at', 'until', 'bytes') or column_name like '%\\_at' escape '\\')`.execute(db);
        expect(rows.length).toBe(12);
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
          expect(applied.flat()).toEqual(['0001-initial']);
          const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(instances[0]!.db);
          expect(rows.map((r) => r.name)).toEqual(['0001-initial']);
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
      const old = createStore(path.join(dir, 'dashboard.sqlite'));
      await old.ledger.recordCall('demo', 1_700_000_000_000, 'query');
      await old.vault.put({ sid: 's1', apiKey: 'demo', enterpriseId: null, sealedSecret: 'x', createdAt: 0, expiresAt: 2_000_000_000_000 });
      old.db.close();

      const opened = await openDatabase({ dataDir: dir });
      try {
        expect(await migrate(opened.db)).toEqual(['0001-initial']);
        expect(await opened.db.selectFrom('upstream_calls').select(['account', 'at']).execute()).toEqual([{ account: 'demo', at: 1_700_000_000_000 }]);
        expect(await opened.db.selectFrom('sessions').select('sid').execute()).toEqual([{ sid: 's1' }]);
      } finally {
        await opened.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
