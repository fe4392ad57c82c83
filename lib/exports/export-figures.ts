import 'server-only';
/**
 * Export jobs by state over every account, for the metrics (sms_export_jobs): read from the store,
 * so every instance reports the same figures.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';

export async function exportJobCounts(db: Kysely<Database>): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('export_jobs')
    .select(['state', sql<number | string>`count(*)`.as('n')])
    .groupBy('state')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
}
