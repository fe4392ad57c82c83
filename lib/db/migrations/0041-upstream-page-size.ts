import 'server-only';
/**
 * The page size the upstream accepts for background reads, once found (lib/history/sync-page-size.ts):
 * one row for the deployment (the upstream is one), kept so a restart, or another instance, does
 * not ask again. `source`: `probed` (an answer at the size asked for, or the smaller size it turned
 * out to serve) or `fallback` (the upstream refused a larger size: `asked`, `status`).
 */
import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from './column-types';
import { columnTypes } from './column-types';

export function upstreamPageSizeMigration(dialect: SqlDialect): Migration {
  const { epoch } = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('upstream_page_size')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('asked', 'integer', (c) => c.notNull())
        .addColumn('status', 'integer')
        .addColumn('decided_at', epoch, (c) => c.notNull())
        .execute();
    },
  };
}
