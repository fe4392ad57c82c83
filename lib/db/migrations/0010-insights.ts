import 'server-only';
/**
 * Insights (lib/insights): what the store keeps so that a month of the local history is summed in
 * milliseconds rather than by reading a million records.
 *  - `history_rollups_hourly`: per scope and UTC hour, one row per combination of the values
 *    Insights breaks delivery down by and filters on (status, network, sender, API key and its
 *    name, enterprise, delivery method, DLR code, parts, currency), with how many records, their
 *    parts and their price (1e-8 units, exact). Serves the per-hour chart and the whole hours of a
 *    day the query's range cuts.
 *  - `history_rollups_daily`: the same per scope, zone (UTC, JST) and day in that zone: whole days,
 *    about 24 times fewer rows to sum. Both zones are kept because a JST day is not a UTC day.
 *  - `history_rollups_facets`: per scope, zone and day, each breakdown on its own (by status and
 *    currency, network, sender, API key, DLR code): what a query without filters reads, a few
 *    hundred rows a day instead of every combination.
 *    Each row also keeps the delivery latencies of its records (32-bit integers, a few bytes each):
 *    exact percentiles then read a few megabytes of rollups, not a million records.
 *  - `history_records_latency`: received time, latency, every rollup value and the price: what
 *    Insights reads of the records when a filter the rollups are not kept by (text, a phone number,
 *    a latency or price bound) sends it to them, without reading the records (about 2 KB each).
 * Both rollups are kept in the transaction that stores the records (lib/history/store/rollups.ts);
 * those of records stored before this migration are built here from them. In SQLite they are
 * WITHOUT ROWID tables: a range of them is read in key order, without a lookup per row.
 */
import { sql, type CreateTableBuilder, type Kysely, type Migration } from 'kysely';
import { columnTypes, type SqlDialect } from './column-types';

const DIMENSIONS = [
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
];

export function insightsMigration(dialect: SqlDialect): Migration {
  const { epoch, binary } = columnTypes(dialect);
  const sums = <T extends string>(t: CreateTableBuilder<T, never>) =>
    t
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
      .addColumn('latencies', binary, (c) => c.notNull());
  const withoutRowid = <T extends string>(t: CreateTableBuilder<T, never>) =>
    dialect === 'sqlite' ? t.modifyEnd(sql`without rowid`) : t;

  return {
    async up(db: Kysely<unknown>) {
      await withoutRowid(
        sums(
          db.schema
            .createTable('history_rollups_hourly')
            .addColumn('scope', 'text', (c) => c.notNull())
            .addColumn('hour_ms', epoch, (c) => c.notNull()),
        ).addPrimaryKeyConstraint('history_rollups_hourly_pk', ['scope', 'hour_ms', ...DIMENSIONS] as never),
      ).execute();
      await withoutRowid(
        sums(
          db.schema
            .createTable('history_rollups_daily')
            .addColumn('scope', 'text', (c) => c.notNull())
            .addColumn('zone', 'text', (c) => c.notNull())
            .addColumn('day', 'integer', (c) => c.notNull()),
        ).addPrimaryKeyConstraint('history_rollups_daily_pk', ['scope', 'zone', 'day', ...DIMENSIONS] as never),
      ).execute();

      await withoutRowid(
        db.schema
          .createTable('history_rollups_facets')
          .addColumn('scope', 'text', (c) => c.notNull())
          .addColumn('zone', 'text', (c) => c.notNull())
          .addColumn('day', 'integer', (c) => c.notNull())
          .addColumn('facet', 'text', (c) => c.notNull())
          .addColumn('key1', 'text', (c) => c.notNull())
          .addColumn('key2', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('currency', 'text', (c) => c.notNull())
          .addColumn('records', 'integer', (c) => c.notNull())
          .addColumn('parts_sum', epoch, (c) => c.notNull())
          .addColumn('price_units', epoch, (c) => c.notNull())
          .addColumn('priced', 'integer', (c) => c.notNull())
          .addColumn('latencies', binary, (c) => c.notNull())
          .addPrimaryKeyConstraint('history_rollups_facets_pk', [
            'scope',
            'zone',
            'day',
            'facet',
            'key1',
            'key2',
            'status',
            'currency',
          ] as never),
      ).execute();

      await db.schema
        .createIndex('history_records_latency')
        .on('history_records')
        .columns(['scope', 'received_ms', 'latency_ms', ...DIMENSIONS, 'price_units'])
        .execute();

      const dims = sql.raw(DIMENSIONS.map((d) => (d === 'parts' ? 'coalesce(parts, 0)' : d)).join(', '));
      const dimNames = sql.raw(DIMENSIONS.join(', '));
      // Latencies as 32-bit big-endian integers, joined (lib/history/store/rollups.ts writes them alike).
      const latencyBytes =
        dialect === 'postgres'
          ? sql`coalesce(string_agg(int4send(latency_ms::int4), ''::bytea), ''::bytea)`
          : sql`coalesce(unhex(group_concat(case when latency_ms is null then null else printf('%08X', latency_ms & 4294967295) end, '')), x'')`;
      const joinedBytes =
        dialect === 'postgres'
          ? sql`coalesce(string_agg(latencies, ''::bytea), ''::bytea)`
          : sql`coalesce(unhex(group_concat(hex(latencies), '')), x'')`;
      await sql`insert into history_rollups_hourly
          select scope, (received_ms / 3600000) * 3600000, ${dims},
                 count(*), coalesce(sum(parts), 0), coalesce(sum(price_units), 0), count(price_units), ${latencyBytes}
          from history_records
          group by scope, (received_ms / 3600000) * 3600000, ${dims}`.execute(db);
      for (const [zone, offset] of [
        ['UTC', 0],
        ['JST', 9 * 3_600_000],
      ] as const) {
        await sql`insert into history_rollups_daily
            select scope, ${zone}, (hour_ms + ${sql.lit(offset)}) / 86400000, ${dimNames},
                   sum(records), sum(parts_sum), sum(price_units), sum(priced), ${joinedBytes}
            from history_rollups_hourly
            group by scope, (hour_ms + ${sql.lit(offset)}) / 86400000, ${dimNames}`.execute(db);
      }
      const facets: [string, string, string][] = [
        ['day', "''", "''"],
        ['network', 'network_code', 'network_name'],
        ['sender', 'from_address', "''"],
        ['api_key', 'api_key', 'api_key_name'],
        ['dlr', 'dlr_error_code', "''"],
      ];
      for (const [facet, key1, key2] of facets) {
        const currency = facet === 'day' ? 'currency' : "''";
        const latencies = facet === 'day' ? joinedBytes : dialect === 'postgres' ? sql`''::bytea` : sql`x''`;
        // PostgreSQL refuses a constant in GROUP BY: only the columns.
        const groups = ['scope', 'zone', 'day', key1, key2, 'status', currency].filter((g) => g !== "''").join(', ');
        await sql`insert into history_rollups_facets
            select scope, zone, day, ${facet}, ${sql.raw(key1)}, ${sql.raw(key2)}, status, ${sql.raw(currency)},
                   sum(records), sum(parts_sum), sum(price_units), sum(priced), ${latencies}
            from history_rollups_daily
            group by ${sql.raw(groups)}`.execute(db);
      }
    },
  };
}
