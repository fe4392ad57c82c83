import 'server-only';
/**
 * Requests waiting for an upstream call in each instance (PostgreSQL, several instances): every
 * instance writes its own queue here and reads the others', so the one slot goes to the best
 * waiter of the whole deployment — people before exports, the least recently served account
 * first — not to whichever instance asks first. Rows of an instance that stopped renewing them
 * are ignored after a few seconds.
 */
import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from './column-types';
import { columnTypes } from './column-types';

export function governorWaitersMigration(dialect: SqlDialect): Migration {
  const { epoch } = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('governor_waiters')
        .addColumn('instance', 'text', (c) => c.notNull())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('account', 'text', (c) => c.notNull())
        .addColumn('cls', 'text', (c) => c.notNull())
        .addColumn('rank', 'integer', (c) => c.notNull())
        .addColumn('last_served', epoch, (c) => c.notNull())
        .addColumn('since', epoch, (c) => c.notNull())
        .addColumn('seen_at', epoch, (c) => c.notNull())
        .addPrimaryKeyConstraint('governor_waiters_pk', ['instance', 'seq'])
        .execute();
    },
  };
}
