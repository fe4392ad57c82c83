import 'server-only';
/**
 * Failed sign-ins, per subject (an API key or a client address, each as a keyed hash: see
 * lib/auth/sign-in-throttle.ts), so the growing wait after failures survives a restart and holds
 * across instances that share a PostgreSQL store. One row per subject: the failures of its current
 * streak and when the last one happened (lib/auth/throttle-rules.ts reads them).
 */
import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from './column-types';
import { columnTypes } from './column-types';

export function signInAttemptsMigration(dialect: SqlDialect): Migration {
  const { epoch } = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('sign_in_attempts')
        .addColumn('subject', 'text', (c) => c.primaryKey())
        .addColumn('failures', 'integer', (c) => c.notNull())
        .addColumn('last_failure_at', epoch, (c) => c.notNull())
        .execute();
    },
  };
}
