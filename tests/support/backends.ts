/**
 * Runs the same contract tests on both backends of the durable store: a real SQLite file in a
 * temporary data folder, and a real PostgreSQL database (created for the test file on the server
 * the global setup provides, emptied before each test, dropped after the file).
 *
 *   forEachBackend((open, dialect) => {
 *     it('…', async () => { const store = await open(); … });
 *   });
 *
 * `open()` opens the test's store (migrated); opening again in the same test sees the same data, as
 * a restarted server would. Stores still open at the end of a test are closed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, inject } from 'vitest';
import type { SqlDialect } from '@/lib/db/schema';
import { openStore, type DurableStore } from '@/lib/root/open-store';
import { createDatabase, type TestDatabase } from './postgres';

export type OpenBackend = () => Promise<DurableStore>;

export const BACKENDS: readonly SqlDialect[] = ['sqlite', 'postgres'];

export function forEachBackend(body: (open: OpenBackend, dialect: SqlDialect) => void): void {
  describe.each(BACKENDS)('on %s', (dialect) => {
    const opened: DurableStore[] = [];
    let target: { DATABASE_URL?: string; dataDir: string } = { dataDir: '' };
    let tempDir: string | undefined;
    let database: TestDatabase | undefined;

    if (dialect === 'postgres') {
      beforeAll(async () => {
        database = await createDatabase(inject('postgresAdminUrl'));
        target = { DATABASE_URL: database.url, dataDir: '/nonexistent' };
        // Migrated once here, so each test can empty the tables it finds.
        await (await openStore(target)).close();
      });
      beforeEach(async () => {
        const store = await openStore(target);
        try {
          await emptyPostgresTables(store);
        } finally {
          await store.close();
        }
      });
      afterAll(async () => {
        await database?.drop();
      });
    } else {
      beforeEach(() => {
        tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sms-store-'));
        target = { dataDir: path.join(tempDir, 'data') };
      });
    }

    afterEach(async () => {
      await Promise.all(opened.splice(0).map((s) => s.close()));
      if (tempDir) fs.rmSync(tempDir, { recursive: true, force: true });
      tempDir = undefined;
    });

    const open: OpenBackend = async () => {
      const store = await openStore(target);
      opened.push(store);
      return store;
    };
    body(open, dialect);
  });
}

async function emptyPostgresTables(store: DurableStore): Promise<void> {
  const { rows } = await sql<{
    tablename: string;
  }>`select tablename from pg_tables where schemaname = 'public' and tablename not like 'kysely%'`.execute(store.db);
  if (rows.length === 0) return;
  await sql`truncate ${sql.join(rows.map((r) => sql.table(r.tablename)))} restart identity`.execute(store.db);
}
