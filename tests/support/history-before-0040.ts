/**
 * The local history's data as every version before migration 0040-history-compact wrote it, for
 * the tests of the migrations that upgrade it: `history_records` naming its scope by key, with
 * the day and the free text on the row; the record itself in `history_bodies`; SQLite's one text
 * index of every scope (`history_fts`, the text stored with a line end); the rollups (unchanged
 * since) and a complete day's pack. The statements are those the history writer of then ran.
 */
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { HistoryRecordRow } from '@/lib/cdr/record-columns';
import type { Database, SqlDialect } from '@/lib/db/schema';
import { DAY_MS, HOUR_MS } from '@/lib/time/units';
import { encodePack, PACK_NUMBER_COLUMNS, PACK_TEXT_COLUMNS } from '@/lib/history/store/day-pack';
import { refreshDayFacets, ROLLUP_DIMENSIONS } from '@/lib/history/store/rollups';

const OLD_COLUMNS = [
  'trx_id',
  'received_ms',
  'day',
  'to_address',
  'to_rev',
  'from_address',
  'status',
  'network_code',
  'network_name',
  'api_key',
  'api_key_name',
  'ref',
  'enterprise_id',
  'delivery_method',
  'dlr_error_code',
  'parts',
  'price_units',
  'currency',
  'submitted_ms',
  'delivered_ms',
  'latency_ms',
  'search_text',
] as const;

const JST_OFFSET_MS = 9 * HOUR_MS;

/**
 * Stores `rows` of `scope` as the writer before 0040 did (each trx_id once), its text indexed
 * (SQLite; `unindexed` records left for the index to catch up with, as the writer left the latest
 * ones until it was idle), and the rollups of the scope summed again from its records.
 */
export async function storeBefore0040(
  db: Kysely<Database>,
  dialect: SqlDialect,
  scope: string,
  rows: readonly HistoryRecordRow[],
  options: { unindexed?: number } = {},
): Promise<void> {
  const d = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  const ids: number[] = [];
  for (const row of rows) {
    const values: Record<string, unknown> = { scope };
    for (const c of OLD_COLUMNS)
      values[c] =
        c === 'search_text' && dialect === 'sqlite' ? `${row.search_text}\n` : row[c as keyof HistoryRecordRow];
    const stored = await d
      .insertInto('history_records')
      .values(values)
      .onConflict((oc) => oc.columns(['scope', 'trx_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!stored) continue;
    ids.push(Number(stored.id));
    await d.insertInto('history_bodies').values({ id: stored.id, body: row.body }).execute();
  }
  if (dialect === 'sqlite') {
    const indexed = ids.slice(0, ids.length - (options.unindexed ?? 0));
    for (const id of indexed)
      await sql`insert into history_fts(rowid, search_text) select id, search_text from history_records where id = ${id}`.execute(
        db,
      );
    const watermark = await sql<{
      n: number;
    }>`select count(*) as n from sqlite_master where name = 'history_text_indexed'
      union all select count(*) from history.sqlite_master where name = 'history_text_indexed'`
      .execute(db)
      .catch(() => ({ rows: [{ n: 0 }] }));
    if (watermark.rows.some((r) => Number(r.n) > 0))
      await sql`update history_text_indexed set upto = ${indexed.length > 0 ? Math.max(...indexed) : 0}`.execute(db);
  }
  await sumRollups(db, dialect, scope);
  const days = new Set(rows.map((r) => r.day));
  for (const day of days) await refreshDayFacets(db, dialect, scope, Date.parse(`${day}T00:00:00Z`));
}

/** The scope's hourly and daily rollups, summed afresh from its records. */
async function sumRollups(db: Kysely<Database>, dialect: SqlDialect, scope: string): Promise<void> {
  const dims = sql.join(ROLLUP_DIMENSIONS.map((c) => (c === 'parts' ? sql`coalesce(parts, 0)` : sql.ref(c))));
  const names = sql.join(ROLLUP_DIMENSIONS.map((c) => sql.ref(c)));
  const latencies =
    dialect === 'postgres'
      ? sql`coalesce(string_agg(int4send(latency_ms::int4), ''::bytea), ''::bytea)`
      : sql`coalesce(unhex(group_concat(case when latency_ms is null then null else printf('%08X', latency_ms & 4294967295) end, '')), x'')`;
  const sums = sql`count(*), coalesce(sum(parts), 0), coalesce(sum(price_units), 0), count(price_units), ${latencies}`;
  await sql`delete from history_rollups_hourly where scope = ${scope}`.execute(db);
  await sql`delete from history_rollups_daily where scope = ${scope}`.execute(db);
  const hour = sql`(received_ms / ${sql.lit(HOUR_MS)}) * ${sql.lit(HOUR_MS)}`;
  await sql`insert into history_rollups_hourly (scope, hour_ms, ${names}, records, parts_sum, price_units, priced, latencies)
    select ${scope}, ${hour}, ${dims}, ${sums} from history_records where scope = ${scope} group by ${hour}, ${dims}`.execute(
    db,
  );
  for (const [zone, offset] of [
    ['UTC', 0],
    ['JST', JST_OFFSET_MS],
  ] as const) {
    const day = sql`(received_ms + ${sql.lit(offset)}) / ${sql.lit(DAY_MS)}`;
    await sql`insert into history_rollups_daily (scope, zone, day, ${names}, records, parts_sum, price_units, priced, latencies)
      select ${scope}, ${zone}, ${day}, ${dims}, ${sums} from history_records where scope = ${scope} group by ${day}, ${dims}`.execute(
      db,
    );
  }
}

/** The pack of a complete UTC day, as the writer before 0040 built it from the scope's records. */
export async function packBefore0040(db: Kysely<Database>, scope: string, day: string): Promise<void> {
  const start = Date.parse(`${day}T00:00:00Z`);
  const columns = sql.join([sql.ref('id'), ...[...PACK_TEXT_COLUMNS, ...PACK_NUMBER_COLUMNS].map((c) => sql.ref(c))]);
  const { rows } = await sql<Parameters<typeof encodePack>[0][number]>`select ${columns} from history_records
    where scope = ${scope} and received_ms >= ${start} and received_ms < ${start + DAY_MS} order by received_ms, trx_id`.execute(
    db,
  );
  await db
    .insertInto('history_day_packs')
    .values({ scope, day, version: randomUUID(), records: rows.length, built_at: 0, pack: encodePack(rows) })
    .execute();
}
