import 'server-only';
/**
 * SQLite's trigram index of the local history is written when the history writer has nothing else
 * to do (lib/history/store/writes.ts indexPendingText), not in the transaction that stores the
 * records: a copied day is complete, and searchable, as soon as its records are in. Records are
 * indexed in the order of their ids; `history_text_indexed.upto` is the last id the index holds,
 * and a search reads the records after it directly (lib/history/store/history-search.ts textCondition).
 *
 * The index's delete and update triggers act only on records it holds. Everything stored before
 * this migration is indexed. PostgreSQL's trigram index is kept by PostgreSQL as rows change.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { SqlDialect } from './column-types';
import { HISTORY_SCHEMA } from './history-schema';

export function textIndexWhenIdleMigration(dialect: SqlDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== 'sqlite') return;
      const h = sql.raw(HISTORY_SCHEMA);
      await sql`create table ${h}.history_text_indexed (id integer primary key check (id = 1), upto integer not null)`.execute(
        db,
      );
      await sql`insert into ${h}.history_text_indexed (id, upto) select 1, coalesce(max(id), 0) from ${h}.history_records`.execute(
        db,
      );
      await sql`drop trigger ${h}.history_fts_delete`.execute(db);
      await sql`drop trigger ${h}.history_fts_update`.execute(db);
      await sql`create trigger ${h}.history_fts_delete after delete on history_records
          when old.id <= (select upto from history_text_indexed) begin
            insert into history_fts(history_fts, rowid, search_text) values ('delete', old.id, old.search_text);
          end`.execute(db);
      await sql`create trigger ${h}.history_fts_update after update of search_text on history_records
          when old.id <= (select upto from history_text_indexed) begin
            insert into history_fts(history_fts, rowid, search_text) values ('delete', old.id, old.search_text);
            insert into history_fts(rowid, search_text) values (new.id, new.search_text);
          end`.execute(db);
    },
  };
}
