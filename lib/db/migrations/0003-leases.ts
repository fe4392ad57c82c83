import 'server-only';
/**
 * Leases: which instance works on a piece of background work (an export job, a day of the local
 * history's copy). A lease that is not renewed expires, so when an instance dies another takes the
 * work over; one instance at a time means no page is paid for twice by two workers.
 */
import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from './column-types';
import { columnTypes } from './column-types';

export function leasesMigration(dialect: SqlDialect): Migration {
  const { epoch } = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('leases')
        .addColumn('resource', 'text', (c) => c.primaryKey())
        .addColumn('holder', 'text', (c) => c.notNull())
        .addColumn('expires_at', epoch, (c) => c.notNull())
        .execute();
    },
  };
}
