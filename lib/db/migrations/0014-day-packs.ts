import 'server-only';
/**
 * Each complete day of the local history also as columns (lib/history/store/day-pack.ts): a search or an
 * Insights query that would read tens of thousands of rows one by one scans the day's pack
 * instead. One row per scope and UTC day, rebuilt whenever the day's records change; `version`
 * tells an instance that its copy in memory is still the one stored.
 */
import type { Kysely, Migration } from 'kysely';
import { columnTypes, type SqlDialect } from './column-types';

export function dayPacksMigration(dialect: SqlDialect): Migration {
  const { epoch, binary } = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('history_day_packs')
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('version', 'text', (c) => c.notNull())
        .addColumn('records', 'integer', (c) => c.notNull())
        .addColumn('built_at', epoch, (c) => c.notNull())
        .addColumn('pack', binary, (c) => c.notNull())
        .addPrimaryKeyConstraint('history_day_packs_pk', ['scope', 'day'])
        .execute();
    },
  };
}
