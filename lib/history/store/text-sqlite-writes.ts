import 'server-only';
/**
 * The history writer's side of SQLite's text index (./text-sqlite.ts reads it): a stored record's
 * text waits in `history_text_pending` and goes into its scope's month table
 * (lib/db/migrations/history-text-tables.ts) when the writer has nothing else to do, a slice at a
 * time (a synced day is complete, and searchable, as soon as its records are in); a scope's text
 * goes with its local history, a month's with its days.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { bulkInsert } from '../../db/bulk-insert';
import {
  createTextTableStatements,
  dropTextTableStatements,
  textMonthOf,
  textTableName,
} from '../../db/migrations/history-text-tables';

type Q = Kysely<Database> | Transaction<Database>;

const run = async (q: Q, statements: readonly string[]) => {
  for (const statement of statements) await sql.raw(statement).execute(q);
};

/** The month's table changed: what the text thread kept of it is not used again (./text-worker.ts). */
async function changed(q: Q, scopeNo: number, month: number): Promise<void> {
  await q
    .updateTable('history_text_months')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('scope_no', '=', scopeNo)
    .where('month', '=', month)
    .execute();
}

/** Keeps the records' texts until the index takes them (indexPendingText). */
export async function addPendingText(
  q: Q,
  scopeNo: number,
  rows: readonly { id: number; received_ms: number; search_text: string }[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) {
    const values = rows
      .slice(i, i + 500)
      .map((r) => ({ id: r.id, scope_no: scopeNo, month: textMonthOf(r.received_ms), search_text: r.search_text }));
    await bulkInsert(q, 'history_text_pending', values, () => q.insertInto('history_text_pending').values(values));
  }
}

/**
 * Puts up to `limit` pending texts into their months' tables, oldest first; answers how many (0:
 * none waits). One statement per table: FTS5 writes what it holds as a new segment whenever
 * another statement starts in the transaction.
 */
export async function indexPendingText(db: Kysely<Database>, schema: string, limit: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const last = await trx
      .selectFrom('history_text_pending')
      .select('id')
      .orderBy('id')
      .limit(1)
      .offset(Math.max(0, limit - 1))
      .executeTakeFirst();
    const upto =
      last?.id ??
      (
        await trx
          .selectFrom('history_text_pending')
          .select((eb) => eb.fn.max('id').as('id'))
          .executeTakeFirst()
      )?.id;
    if (upto === null || upto === undefined) return 0;
    const groups = await trx
      .selectFrom('history_text_pending')
      .select(['scope_no', 'month', (eb) => eb.fn.countAll<number>().as('n')])
      .where('id', '<=', upto)
      .groupBy(['scope_no', 'month'])
      .execute();
    const existing = await trx.selectFrom('history_text_months').select(['scope_no', 'month']).execute();
    const made = new Set(existing.map((e) => `${e.scope_no}:${e.month}`));
    let indexed = 0;
    for (const { scope_no: scopeNo, month, n } of groups) {
      if (!made.has(`${scopeNo}:${month}`))
        await run(trx, createTextTableStatements(schema, Number(scopeNo), Number(month)));
      const table = sql.raw(`${schema}.${textTableName(Number(scopeNo), Number(month))}`);
      await sql`insert into ${table} (rowid, search_text)
        select id, search_text || char(10, 10) from history_text_pending
        where scope_no = ${scopeNo} and month = ${month} and id <= ${upto}`.execute(trx);
      await changed(trx, Number(scopeNo), Number(month));
      indexed += Number(n);
    }
    await trx.deleteFrom('history_text_pending').where('id', '<=', upto).execute();
    return indexed;
  });
}

/** Forgets every text of the scope: its tables dropped, its pending texts deleted. */
export async function deleteScopeText(q: Q, schema: string, scopeNo: number): Promise<void> {
  const months = await q.selectFrom('history_text_months').select('month').where('scope_no', '=', scopeNo).execute();
  for (const { month } of months) await run(q, dropTextTableStatements(schema, scopeNo, Number(month)));
  await q.deleteFrom('history_text_pending').where('scope_no', '=', scopeNo).execute();
}

/** Drops the scope's months wholly before the one of `cutMs` (their records are being deleted). */
export async function dropTextMonthsBefore(q: Q, schema: string, scopeNo: number, cutMs: number): Promise<void> {
  const months = await q
    .selectFrom('history_text_months')
    .select('month')
    .where('scope_no', '=', scopeNo)
    .where('month', '<', textMonthOf(cutMs))
    .execute();
  for (const { month } of months) await run(q, dropTextTableStatements(schema, scopeNo, Number(month)));
}

/** Deletes the texts of these records (one month's, or pending): their terms leave the index at once. */
export async function deleteText(
  q: Q,
  schema: string,
  scopeNo: number,
  records: readonly { id: number; received_ms: number }[],
): Promise<void> {
  const byMonth = new Map<number, number[]>();
  for (const r of records) {
    const month = textMonthOf(r.received_ms);
    (byMonth.get(month) ?? byMonth.set(month, []).get(month)!).push(r.id);
  }
  const tables = await q.selectFrom('history_text_months').select('month').where('scope_no', '=', scopeNo).execute();
  const present = new Set(tables.map((t) => Number(t.month)));
  for (const [month, ids] of byMonth) {
    const list = JSON.stringify(ids);
    if (present.has(month)) {
      await sql`delete from ${sql.raw(`${schema}.${textTableName(scopeNo, month)}`)} where rowid in (select value from json_each(${list}))`.execute(
        q,
      );
      await changed(q, scopeNo, month);
    }
    await sql`delete from history_text_pending where id in (select value from json_each(${list}))`.execute(q);
  }
}
