/**
 * The service harness (./service-harness.ts) on either backend of the store: SQLite in a temporary
 * data folder, or a PostgreSQL database of its own on the tests' server (created here, dropped at
 * close). Several harnesses may share one PostgreSQL database (`databaseUrl`), as instances do.
 */
import { inject } from 'vitest';
import type { SqlDialect } from '../../lib/db/schema';
import { createDatabase } from './postgres';
import { startHarness, type Harness } from './service-harness';

type HarnessOptions = NonNullable<Parameters<typeof startHarness>[0]>;

export async function startHarnessOn(
  dialect: SqlDialect,
  opts: HarnessOptions & { databaseUrl?: string } = {},
): Promise<Harness> {
  if (dialect === 'sqlite') return startHarness(opts);
  const database = opts.databaseUrl ? null : await createDatabase(inject('postgresAdminUrl'), 'harness');
  const url = opts.databaseUrl ?? database!.url;
  const h = await startHarness({ ...opts, env: { ...opts.env, DATABASE_URL: url } });
  const close = h.close.bind(h);
  return Object.assign(h, {
    async close() {
      await close();
      await database?.drop();
    },
  });
}
