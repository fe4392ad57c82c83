import 'server-only';
/**
 * PostgreSQL: the indexes of the orders by price and by latency in the order a search asks for.
 * A search sorted by a column orders by it with absent values as the smallest (`asc nulls first`,
 * `desc nulls last`: lib/history/store/search-sql.ts), then by received time and trx_id; the
 * indexes of 0040 (scope, column, received time) in PostgreSQL's default `nulls last` and without
 * trx_id matched neither direction, so a year sorted by price sorted every record of the year for
 * its page (441 ms at page 1 over a million records, bench/NOTES.md). Now each index is that order
 * (read forwards for `asc`, backwards for `desc`), with the id included so a page is read from the
 * index alone. SQLite orders absent values first already, but read its price index for the first
 * two keys and each record's row for trx_id, sorting ties: a page 1000 of a year by price read
 * 25,000 rows (142 ms p95 over 3,000,000 records). Its price index ends with trx_id now (the id is
 * in every SQLite index), read alone; about 33 bytes a record. Its latency index is left as it was
 * (the disk budget of issue 37: 1,200 bytes a record).
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { SqlDialect } from './column-types';
import { HISTORY_SCHEMA } from './history-schema';

export const ORDER_INDEXES = [
  { name: 'history_records_price', column: 'price_units' },
  { name: 'history_records_latency', column: 'latency_ms' },
] as const;

export function historyOrderIndexesMigration(dialect: SqlDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'sqlite') {
        await sql.raw(`drop index if exists ${HISTORY_SCHEMA}.history_records_price`).execute(db);
        await sql
          .raw(
            `create index ${HISTORY_SCHEMA}.history_records_price on history_records (scope_no, price_units, received_ms, trx_id)`,
          )
          .execute(db);
        return;
      }
      for (const { name, column } of ORDER_INDEXES) {
        await sql.raw(`drop index if exists ${name}`).execute(db);
        await sql
          .raw(
            `create index ${name} on history_records (scope_no, ${column} nulls first, received_ms, trx_id) include (id)`,
          )
          .execute(db);
      }
    },
  };
}
