import 'server-only';
/**
 * The local history copies a day in two steps (lib/history/store/history-store.ts): each upstream page is
 * staged as it comes (`history_staged_pages`), and the day's records go into the data once every
 * page is read, written by the history writer on a thread of its own.
 *
 * SQLite lets one connection write a file at a time, so there the data — records, bodies, the text
 * index and its vocabulary, rollups, day packs — moves to a file of its own (history.sqlite,
 * attached to the server's connection as schema `history`: lib/db/history-file.ts), which
 * only the writer writes. The tables are created there exactly as the migrations before made them
 * here (their SQL is read from this file's schema), the rows copied, the text index rebuilt, and
 * the tables here dropped. The copy is one transaction of the history file: a start that stopped
 * after it finds the tables there and only drops these. PostgreSQL keeps one database.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { SqlDialect } from './column-types';
import { HISTORY_SCHEMA } from './history-schema';

/** The data tables, those the text index reads (history_records) before it. */
const DATA_TABLES = [
  'history_records',
  'history_bodies',
  'history_rollups_hourly',
  'history_rollups_daily',
  'history_rollups_facets',
  'history_day_packs',
];
const TEXT_INDEX = 'history_fts';
const VOCABULARY = 'history_fts_vocab';

type SchemaRow = { type: string; name: string; tbl_name: string; sql: string };

/** A CREATE statement of this file's schema, made to create the same thing in the history file. */
function inHistoryFile(statement: string): string {
  const moved = statement.replace(
    /^(\s*CREATE\s+(?:VIRTUAL\s+|UNIQUE\s+)?(?:TABLE|INDEX|TRIGGER)\s+(?:IF\s+NOT\s+EXISTS\s+)?)/i,
    `$1${HISTORY_SCHEMA}.`,
  );
  if (moved === statement) throw new Error(`cannot move to the history file: ${statement.slice(0, 60)}`);
  return moved;
}

async function moveToHistoryFile(db: Kysely<unknown>): Promise<void> {
  const owned = [...DATA_TABLES, TEXT_INDEX, VOCABULARY];
  const moved = await sql<{
    n: number;
  }>`select count(*) as n from ${sql.raw(HISTORY_SCHEMA)}.sqlite_master where name = 'history_records'`.execute(db);
  if (Number(moved.rows[0]!.n) === 0) {
    const { rows } =
      await sql<SchemaRow>`select type, name, tbl_name, sql from main.sqlite_master where sql is not null`.execute(db);
    // FTS5 makes its own shadow tables (history_fts_data, …) when the index is created.
    const mine = rows.filter((r) => owned.includes(r.tbl_name) && (r.type !== 'table' || owned.includes(r.name)));
    const order = (r: SchemaRow) => ({ table: 0, index: 1, trigger: 2 })[r.type] ?? 3;
    // The vocabulary reads the text index, which reads the records: created in that order.
    const rank = (r: SchemaRow) => [TEXT_INDEX, VOCABULARY].indexOf(r.name);
    mine.sort((a, b) => order(a) - order(b) || rank(a) - rank(b));
    await sql`begin`.execute(db);
    try {
      for (const r of mine) await sql.raw(inHistoryFile(r.sql)).execute(db);
      for (const table of DATA_TABLES)
        await sql.raw(`insert into ${HISTORY_SCHEMA}.${table} select * from main.${table}`).execute(db);
      await sql.raw(`insert into ${HISTORY_SCHEMA}.${TEXT_INDEX}(${TEXT_INDEX}) values ('rebuild')`).execute(db);
      // A deleted record's terms leave the index at once (0011-history-bodies set it here).
      await sql
        .raw(`insert into ${HISTORY_SCHEMA}.${TEXT_INDEX}(${TEXT_INDEX}, rank) values ('secure-delete', 1)`)
        .execute(db);
      await sql`commit`.execute(db);
    } catch (err) {
      await sql`rollback`.execute(db);
      throw err;
    }
  }
  for (const table of [VOCABULARY, TEXT_INDEX, ...DATA_TABLES])
    await sql.raw(`drop table if exists main.${table}`).execute(db);
}

export function historyDataApartMigration(dialect: SqlDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('history_staged_pages')
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('records', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('history_staged_pages_pk', ['scope', 'day', 'seq'])
        .execute();
      if (dialect === 'sqlite') await moveToHistoryFile(db);
    },
  };
}
