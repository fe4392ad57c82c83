import 'server-only';
/**
 * The client addresses each API key signed in from lately (a keyed hash of the pair, never as they
 * came: lib/auth/sign-in-throttle.ts), and until when each is remembered. A key that waits because
 * of failed sign-ins still lets its owner in from such an address, on that address's own streak:
 * anyone who knows a key must not be able to lock its owner out.
 */
import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from './column-types';
import { columnTypes } from './column-types';

export function signInKnownAddressesMigration(dialect: SqlDialect): Migration {
  const { epoch } = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('sign_in_known_addresses')
        .addColumn('pair', 'text', (c) => c.primaryKey())
        .addColumn('until', epoch, (c) => c.notNull())
        .execute();
    },
  };
}
