/**
 * SQLite's text index of the local history as tests check it: every scope's month table
 * (lib/db/migrations/history-text-tables.ts) passes FTS5's own integrity check.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '@/lib/db/schema';
import { textTableName } from '@/lib/db/migrations/history-text-tables';

/** The text index's tables, as `history_text_months` lists them. */
export async function textIndexTables(db: Kysely<Database>): Promise<string[]> {
  const rows = await db.selectFrom('history_text_months').select(['scope_no', 'month']).execute();
  return rows.map((r) => textTableName(Number(r.scope_no), Number(r.month)));
}

/** Runs FTS5's integrity check on every table of the index (it throws on an entry missing or stale). */
export async function checkTextIndex(db: Kysely<Database>): Promise<void> {
  for (const table of await textIndexTables(db))
    await sql`insert into ${sql.raw(table)}(${sql.raw(table)}) values ('integrity-check')`.execute(db);
}
