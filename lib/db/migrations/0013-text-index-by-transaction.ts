import 'server-only';
/**
 * SQLite's text index of the local history is written by the store, once per transaction, after
 * the records (lib/history/store/history-store.ts, indexText), not by a trigger row by row: FTS5 writes its
 * pending terms to a new segment whenever another statement starts in the transaction, so the
 * trigger wrote each page's terms in several small segments, the largest part of storing a page.
 * The delete and update triggers stay: every stored record has its entry. PostgreSQL's trigram
 * index is maintained by PostgreSQL.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { SqlDialect } from './column-types';

export function textIndexByTransactionMigration(dialect: SqlDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'sqlite') await sql`drop trigger history_fts_insert`.execute(db);
    },
  };
}
