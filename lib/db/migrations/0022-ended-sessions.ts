import 'server-only';
/**
 * Why a session ended when it did not end by its own sign-out: every session of an API key ended at
 * once ("sign out everywhere", or the upstream refusing the key's secret at a token renewal). The
 * session's row goes (its sealed secret with it); this keeps only its id, the reason and when the
 * session would have expired, so that each other browser of the key is told why on its next
 * request rather than only "sign in first". Pruned with the sessions.
 */
import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from './column-types';
import { columnTypes } from './column-types';

export function endedSessionsMigration(dialect: SqlDialect): Migration {
  const { epoch } = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('ended_sessions')
        .addColumn('sid', 'text', (c) => c.primaryKey())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('expires_at', epoch, (c) => c.notNull())
        .execute();
    },
  };
}
