import 'server-only';
/**
 * Insights (lib/insights): what the store keeps so that a month of the local history is summed in
 * milliseconds rather than by reading a million records.
 *  - `history_rollups`: per scope and UTC hour, one row per combination of the values Insights
 *    breaks delivery down by and filters on (status, network, sender, API key and its name,
 *    enterprise, delivery method, DLR code, parts, currency), with how many records, their parts
 *    and their price (1e-8 units, exact). Kept in the same transaction as the records
 *    (lib/store/history-rollups.ts). An hour is the coarsest grain whose sums serve days in both
 *    zones (JST is UTC+9) and the per-hour chart; at a month of 1,000,000 records it holds about
 *    an eighth as many rows.
 *  - `history_records_latency`: the records' delivery latency beside received time (and the
 *    values most often filtered on), so exact percentiles read an index, not the records.
 * Rollups of records stored before this migration are built here from them.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import { columnTypes, type SqlDialect } from './column-types';

export function insightsMigration(dialect: SqlDialect): Migration {
  const { epoch } = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('history_rollups')
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('hour_ms', epoch, (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('network_code', 'text', (c) => c.notNull())
        .addColumn('network_name', 'text', (c) => c.notNull())
        .addColumn('from_address', 'text', (c) => c.notNull())
        .addColumn('api_key', 'text', (c) => c.notNull())
        .addColumn('api_key_name', 'text', (c) => c.notNull())
        .addColumn('enterprise_id', 'text', (c) => c.notNull())
        .addColumn('delivery_method', 'text', (c) => c.notNull())
        .addColumn('dlr_error_code', 'text', (c) => c.notNull())
        // 0 for a record without a part count (a key column cannot be null in PostgreSQL).
        .addColumn('parts', 'integer', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('records', 'integer', (c) => c.notNull())
        .addColumn('parts_sum', epoch, (c) => c.notNull())
        .addColumn('price_units', epoch, (c) => c.notNull())
        .addColumn('priced', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('history_rollups_pk', [
          'scope',
          'hour_ms',
          'status',
          'network_code',
          'network_name',
          'from_address',
          'api_key',
          'api_key_name',
          'enterprise_id',
          'delivery_method',
          'dlr_error_code',
          'parts',
          'currency',
        ])
        .execute();

      await db.schema
        .createIndex('history_records_latency')
        .on('history_records')
        .columns(['scope', 'received_ms', 'latency_ms', 'network_code', 'from_address', 'api_key'])
        .execute();

      await sql`insert into history_rollups
          select scope, (received_ms / 3600000) * 3600000, status, network_code, network_name, from_address, api_key, api_key_name,
                 enterprise_id, delivery_method, dlr_error_code, coalesce(parts, 0), currency,
                 count(*), coalesce(sum(parts), 0), coalesce(sum(price_units), 0), count(price_units)
          from history_records
          group by scope, (received_ms / 3600000) * 3600000, status, network_code, network_name, from_address, api_key, api_key_name,
                   enterprise_id, delivery_method, dlr_error_code, coalesce(parts, 0), currency`.execute(db);
    },
  };
}
