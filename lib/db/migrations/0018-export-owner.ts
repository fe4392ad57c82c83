import 'server-only';
/**
 * An export belongs to the account that asked for it — its API key and its enterprise — as the
 * local history and the page cache do: a key that reaches several enterprises (a support key)
 * signed in for one of them no longer lists, reads, downloads or cancels the exports made for
 * another. `owner` is that account's key (lib/history/scope.ts scopeOf, as it was written when this
 * migration was: the JSON of [API key, enterprise id]); jobs stored before get theirs from their
 * own record.
 */
import { sql, type Kysely, type Migration } from 'kysely';

export const exportOwnerMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('export_jobs').addColumn('owner', 'text').execute();
    const { rows } = await sql<{ id: string; data: string }>`select id, data from export_jobs`.execute(db);
    for (const row of rows) {
      const job = JSON.parse(row.data) as { account: string; enterpriseId?: string | null };
      await sql`update export_jobs set owner = ${JSON.stringify([job.account, job.enterpriseId ?? null])} where id = ${row.id}`.execute(
        db,
      );
    }
    await db.schema.createIndex('export_jobs_owner').on('export_jobs').columns(['owner', 'created_at']).execute();
  },
};
