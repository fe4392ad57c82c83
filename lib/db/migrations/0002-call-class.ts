import 'server-only';
/**
 * Every call in the ledger says whose it was (lib/governor/classes.ts): a person's, a renewal, a
 * sign-in, an export's or the local history's copy. Token requests are ledgered too now, so the
 * deployment's token cap holds across restarts and instances. Calls recorded before this were all
 * query calls of people or exports; they read as interactive, the stricter reading.
 */
import type { Kysely, Migration } from 'kysely';

export const callClassMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('upstream_calls')
      .addColumn('class', 'text', (c) => c.notNull().defaultTo('interactive'))
      .execute();
  },
};
