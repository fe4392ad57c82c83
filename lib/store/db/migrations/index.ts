import 'server-only';
/**
 * Every migration, in order. A static list (not a folder read at run time) so the bundler sees
 * them. Names sort in the order they apply; a new migration is a new file and a new line here, and
 * an applied one is never edited.
 */
import type { Migration } from 'kysely';
import type { SqlDialect } from '../schema';
import { initialMigration } from './0001-initial';

export function migrationsFor(dialect: SqlDialect): Record<string, Migration> {
  return {
    '0001-initial': initialMigration(dialect),
  };
}
