import 'server-only';
/**
 * A team person's language, kept with their profile (issue 39): the one they last picked with the
 * header's switch, which comes before the browser's cookie on every device they sign in from
 * (lib/i18n/negotiate.ts). Null until they pick one.
 */
import type { Kysely, Migration } from 'kysely';

export const personLocaleMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('team_people').addColumn('locale', 'text').execute();
  },
};
