import 'server-only';
/**
 * The local history (lib/history): a copy of an account's settled days, kept in full so that any
 * query over them is answered here.
 *  - `history_settings`: per scope (API key and enterprise), whether the copy is wanted, from which
 *    day, and whether it goes on while nobody is signed in (then the sealed secret is kept here);
 *  - `history_days`: each UTC day's progress (its windows and pages read) and state;
 *  - `history_records`: the records, one row per trx_id and scope, with the columns filters and
 *    sorts read, the free-text of `q`, and the record itself (JSON);
 *  - `history_results`: complete results of the page cache (every page of a settled query stored),
 *    whose records are in `history_records` too: a narrower query can be answered from them.
 * Free text: SQLite's FTS5 with the trigram tokenizer (case-insensitive substrings, Japanese
 * included); PostgreSQL's pg_trgm GIN index serving ILIKE — the same question, asked each its way.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import { addIdColumn, columnTypes, type SqlDialect } from './column-types';

export function historyMigration(dialect: SqlDialect): Migration {
  const { epoch } = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      const s = db.schema;
      await s
        .createTable('history_settings')
        .addColumn('scope', 'text', (c) => c.primaryKey())
        .addColumn('api_key', 'text', (c) => c.notNull())
        .addColumn('enterprise_id', 'text')
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('since_day', 'text', (c) => c.notNull())
        .addColumn('keep_signed_out', 'integer', (c) => c.notNull())
        .addColumn('sealed_secret', 'text')
        .addColumn('created_at', epoch, (c) => c.notNull())
        .addColumn('updated_at', epoch, (c) => c.notNull())
        .execute();

      await s
        .createTable('history_days')
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('progress', 'text', (c) => c.notNull())
        .addColumn('records', 'integer', (c) => c.notNull())
        .addColumn('calls', 'integer', (c) => c.notNull())
        .addColumn('updated_at', epoch, (c) => c.notNull())
        .addColumn('completed_at', epoch)
        .addPrimaryKeyConstraint('history_days_pk', ['scope', 'day'])
        .execute();

      await addIdColumn(s.createTable('history_records'), dialect)
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('trx_id', 'text', (c) => c.notNull())
        .addColumn('received_ms', epoch, (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('to_address', 'text', (c) => c.notNull())
        .addColumn('to_rev', 'text', (c) => c.notNull())
        .addColumn('from_address', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('network_code', 'text', (c) => c.notNull())
        .addColumn('network_name', 'text', (c) => c.notNull())
        .addColumn('api_key', 'text', (c) => c.notNull())
        .addColumn('api_key_name', 'text', (c) => c.notNull())
        .addColumn('ref', 'text', (c) => c.notNull())
        .addColumn('enterprise_id', 'text', (c) => c.notNull())
        .addColumn('delivery_method', 'text', (c) => c.notNull())
        .addColumn('dlr_error_code', 'text', (c) => c.notNull())
        .addColumn('parts', 'integer')
        .addColumn('price_units', epoch)
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('submitted_ms', epoch)
        .addColumn('delivered_ms', epoch)
        .addColumn('latency_ms', epoch)
        .addColumn('search_text', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addUniqueConstraint('history_records_scope_trx', ['scope', 'trx_id'])
        .execute();
      // The default order (received time, then trx_id) and every upstream filter a person uses
      // most, each with received time after it so a filtered range is read in order.
      const index = (name: string, columns: string[]) =>
        s.createIndex(name).on('history_records').columns(columns).execute();
      await index('history_records_received', ['scope', 'received_ms', 'trx_id']);
      await index('history_records_status', ['scope', 'status', 'received_ms']);
      await index('history_records_network', ['scope', 'network_code', 'received_ms']);
      await index('history_records_sender', ['scope', 'from_address', 'received_ms']);
      await index('history_records_to', ['scope', 'to_address']);
      await index('history_records_to_rev', ['scope', 'to_rev']);
      await index('history_records_ref', ['scope', 'ref']);

      if (dialect === 'sqlite') {
        await sql`create virtual table history_fts using fts5(search_text, content='history_records', content_rowid='id', tokenize='trigram')`.execute(
          db,
        );
        await sql`create trigger history_fts_insert after insert on history_records begin
            insert into history_fts(rowid, search_text) values (new.id, new.search_text);
          end`.execute(db);
        await sql`create trigger history_fts_delete after delete on history_records begin
            insert into history_fts(history_fts, rowid, search_text) values ('delete', old.id, old.search_text);
          end`.execute(db);
        await sql`create trigger history_fts_update after update of search_text on history_records begin
            insert into history_fts(history_fts, rowid, search_text) values ('delete', old.id, old.search_text);
            insert into history_fts(rowid, search_text) values (new.id, new.search_text);
          end`.execute(db);
      } else {
        await sql`create extension if not exists pg_trgm`.execute(db);
        await sql`create index history_records_search on history_records using gin (search_text gin_trgm_ops)`.execute(
          db,
        );
      }

      await s
        .createTable('history_results')
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('result_key', 'text', (c) => c.notNull())
        .addColumn('filters', 'text', (c) => c.notNull())
        .addColumn('from_ms', epoch, (c) => c.notNull())
        .addColumn('to_ms', epoch, (c) => c.notNull())
        .addColumn('records', 'integer', (c) => c.notNull())
        .addColumn('created_at', epoch, (c) => c.notNull())
        .addPrimaryKeyConstraint('history_results_pk', ['scope', 'result_key'])
        .execute();
    },
  };
}
