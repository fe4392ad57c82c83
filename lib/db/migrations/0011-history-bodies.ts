import 'server-only';
/**
 * The local history's records made narrow: the record itself (about 1 KB of JSON) moves to
 * `history_bodies`, so the searches that read many rows — counting, filtering on a column without
 * an index of its own, deep pages, other orders — read about a fifth of the bytes, and the body is
 * read only for the rows a page shows. The text index forgets deleted records at once. And indexes for the orders people pick most after received
 * time: by price and by delivery latency (each with received time and trx_id, the tie rule, so the
 * whole order is read from the index).
 */
import { sql, type Kysely, type Migration } from 'kysely';
import { columnTypes, type SqlDialect } from './column-types';

export function historyBodiesMigration(dialect: SqlDialect): Migration {
  const { epoch } = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('history_bodies')
        .addColumn('id', epoch, (c) => c.primaryKey())
        .addColumn('body', 'text', (c) => c.notNull())
        .execute();
      await sql`insert into history_bodies (id, body) select id, body from history_records`.execute(db);
      await db.schema.alterTable('history_records').dropColumn('body').execute();
      const index = (name: string, columns: string[]) =>
        db.schema.createIndex(name).on('history_records').columns(columns).execute();
      await index('history_records_price', ['scope', 'price_units', 'received_ms', 'trx_id']);
      await index('history_records_latency_order', ['scope', 'latency_ms', 'received_ms', 'trx_id']);
      // A deleted record's terms leave the text index at once (not at its next merge): a deleted
      // copy keeps no trace of a number or a message there either (SQLite 3.44+).
      if (dialect === 'sqlite')
        await sql`insert into history_fts(history_fts, rank) values ('secure-delete', 1)`.execute(db);
    },
  };
}
