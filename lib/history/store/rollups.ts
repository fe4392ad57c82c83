import 'server-only';
/**
 * The rollups Insights reads (migration 0010-insights): per scope, the records of each combination
 * of the values it breaks down and filters by, with their parts and price — per UTC hour, and per
 * day of each zone. Added to in the transaction that stores the records (only records really
 * inserted: one already held is not counted twice), summed by the database from those rows, and
 * dropped with them, so they always equal the records.
 */
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import { ZONES, zoneOffsetMs, type Zone } from '../../time/zones';
import { DAY_MS, HOUR_MS } from '../../time/units';
import { zoneDayIndex, zoneDayStart } from '../../time/zone-days';
import { recordsWithIds } from '../../db/record-ids';
import type { Database, HistoryRecordsTable, RollupSums, SqlDialect } from '../../db/schema';

/** The values a rollup row is kept per (besides scope and time). */
export const ROLLUP_DIMENSIONS = [
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
] as const satisfies readonly (keyof RollupSums & keyof HistoryRecordsTable)[];

export type RollupDimension = (typeof ROLLUP_DIMENSIONS)[number];

/**
 * The latencies of a group of records as a rollup keeps them: 32-bit big-endian integers, one after
 * another (readLatencies reads them back; absent latencies are left out).
 */
function latencyBytesOf(dialect: SqlDialect, column: RawBuilder<unknown>): RawBuilder<Buffer> {
  return dialect === 'postgres'
    ? sql<Buffer>`coalesce(string_agg(int4send(${column}::int4), ''::bytea), ''::bytea)`
    : sql<Buffer>`coalesce(unhex(group_concat(case when ${column} is null then null else printf('%08X', ${column} & 4294967295) end, '')), x'')`;
}

/** Appends the latencies of a rollup's bytes to `into` from `at`; answers where it stopped. */
export function readLatencies(bytes: Uint8Array, into: Float64Array, at: number): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i + 4 <= bytes.byteLength; i += 4) into[at++] = view.getInt32(i, false);
  return at;
}

/** The bytes of two rollups' latencies together (an upsert's), and of a group of rows (an aggregate). */
export function appendBytes(
  dialect: SqlDialect,
  stored: RawBuilder<unknown>,
  added: RawBuilder<unknown>,
): RawBuilder<Buffer> {
  // SQLite's || joins text: the bytes go through hex to stay bytes.
  return dialect === 'postgres'
    ? sql<Buffer>`${stored} || ${added}`
    : sql<Buffer>`unhex(hex(${stored}) || hex(${added}))`;
}

export function joinedBytes(dialect: SqlDialect, column: RawBuilder<unknown>): RawBuilder<Buffer> {
  return dialect === 'postgres'
    ? sql<Buffer>`coalesce(string_agg(${column}, ''::bytea), ''::bytea)`
    : sql<Buffer>`coalesce(unhex(group_concat(hex(${column}), '')), x'')`;
}

/**
 * The breakdowns of an unfiltered Insights query, each kept apart per day of a zone
 * (`history_rollups_facets`): a month of them is a few thousand rows, where the combinations of
 * every value (`history_rollups_daily`, which filtered queries need) are tens of thousands. Per
 * facet, the values it is by (`key1`, `key2`; "" when unused) and the status; the day facet keeps
 * the currency, and once the day is complete its latencies too.
 */
export const FACETS = {
  day: { key1: null, key2: null },
  network: { key1: 'network_code', key2: 'network_name' },
  sender: { key1: 'from_address', key2: null },
  api_key: { key1: 'api_key', key2: 'api_key_name' },
  dlr: { key1: 'dlr_error_code', key2: null },
} as const satisfies Record<string, { key1: RollupDimension | null; key2: RollupDimension | null }>;

export type Facet = keyof typeof FACETS;
const FACET_NAMES = Object.keys(FACETS) as Facet[];

/**
 * The facets of a UTC day summed again from its daily rows, with the day facet's latencies — for
 * the UTC day and for the two JST days it touches: when the day's sync is complete, or records
 * were added to it.
 */
export async function refreshDayFacets(q: Q, dialect: SqlDialect, scope: string, utcDayStart: number): Promise<void> {
  for (const zone of ZONES) {
    const first = zoneDayIndex(utcDayStart, zone);
    const last = zoneDayIndex(utcDayStart + DAY_MS - 1, zone);
    for (let day = first; day <= last; day++) await rebuildFacets(q, dialect, scope, zone, day);
  }
}

/** Sums the facets of a zone's day again from its daily rows (after the daily rows were rebuilt). */
async function rebuildFacets(q: Q, dialect: SqlDialect, scope: string, zone: Zone, day: number): Promise<void> {
  await q
    .deleteFrom('history_rollups_facets')
    .where('scope', '=', scope)
    .where('zone', '=', zone)
    .where('day', '=', day)
    .execute();
  for (const facet of FACET_NAMES) {
    const { key1, key2 } = FACETS[facet];
    const k1 = key1 ? sql.ref(key1) : sql`''`;
    const k2 = key2 ? sql.ref(key2) : sql`''`;
    const currency = facet === 'day' ? sql.ref('currency') : sql`''`;
    const latencies = facet === 'day' ? joinedBytes(dialect, sql.ref('latencies')) : sql`${Buffer.alloc(0)}`;
    // PostgreSQL refuses a constant in GROUP BY: only the columns.
    const groups = sql.join([
      sql.ref('status'),
      ...[key1, key2, facet === 'day' ? 'currency' : null]
        .filter((c): c is string => c !== null)
        .map((c) => sql.ref(c)),
    ]);
    await sql`insert into history_rollups_facets (scope, zone, day, facet, key1, key2, status, currency, records, parts_sum, price_units, priced, latencies)
        select ${scope}, ${zone}, ${day}, ${facet}, ${k1}, ${k2}, status, ${currency}, sum(records), sum(parts_sum), sum(price_units), sum(priced), ${latencies}
        from history_rollups_daily
        where scope = ${scope} and zone = ${zone} and day = ${day}
        group by ${groups}`.execute(q);
  }
}

type Q = Kysely<Database> | Transaction<Database>;

/**
 * Adds the records just stored (their ids; the scope by its key, as the rollups keep it, and its
 * number, as the records do) to the scope's hourly rollups and to each zone's daily ones. Summed by the database: a copied
 * day's records are thousands of rows, and grouping them there costs no row read into JavaScript.
 * The facets follow from the daily rows (refreshDayFacets).
 */
export async function addToRollups(
  q: Q,
  dialect: SqlDialect,
  scope: string,
  scopeNo: number,
  ids: readonly number[],
): Promise<void> {
  const stored = recordsWithIds(dialect, scopeNo, ids);
  const dims = sql.join(ROLLUP_DIMENSIONS.map((d) => (d === 'parts' ? sql`coalesce(parts, 0)` : sql.ref(d))));
  const dimNames = sql.join(ROLLUP_DIMENSIONS.map((d) => sql.ref(d)));
  const sums = sql`count(*), coalesce(sum(parts), 0), coalesce(sum(price_units), 0), count(price_units), ${latencyBytesOf(dialect, sql.ref('latency_ms'))}`;
  const update = (table: 'history_rollups_hourly' | 'history_rollups_daily') => {
    const set = qualified(dialect, table);
    return sql.join(Object.entries(set).map(([column, value]) => sql`${sql.ref(column)} = ${value}`));
  };
  // Constants written into the statement: PostgreSQL matches GROUP BY to the select list by its text.
  const hour = sql`(received_ms / ${sql.lit(HOUR_MS)}) * ${sql.lit(HOUR_MS)}`;
  await sql`insert into history_rollups_hourly (scope, hour_ms, ${dimNames}, records, parts_sum, price_units, priced, latencies)
      select ${scope}, ${hour}, ${dims}, ${sums}
      from ${stored}
      group by ${hour}, ${dims}
      on conflict (scope, hour_ms, ${dimNames}) do update set ${update('history_rollups_hourly')}`.execute(q);
  for (const zone of ZONES) {
    // The zone day of each record, as zoneDayIndex counts it (received times are never negative).
    const day = sql`(received_ms + ${sql.lit(zoneOffsetMs(zone))}) / ${sql.lit(DAY_MS)}`;
    await sql`insert into history_rollups_daily (scope, zone, day, ${dimNames}, records, parts_sum, price_units, priced, latencies)
        select ${scope}, ${zone}, ${day}, ${dims}, ${sums}
        from ${stored}
        group by ${day}, ${dims}
        on conflict (scope, zone, day, ${dimNames}) do update set ${update('history_rollups_daily')}`.execute(q);
  }
}

/**
 * The sums added in an upsert, the stored values named by their table (PostgreSQL needs it).
 * Latencies are appended where rows stay small (an hour's, a day's of one combination of values);
 * the facets' are left as they are (refreshDayFacets fills them).
 */
function qualified(
  dialect: SqlDialect,
  table: 'history_rollups_hourly' | 'history_rollups_daily' | 'history_rollups_facets',
) {
  const t = sql.table(table);
  return {
    records: sql<number>`${t}.records + excluded.records`,
    parts_sum: sql<number>`${t}.parts_sum + excluded.parts_sum`,
    price_units: sql<number>`${t}.price_units + excluded.price_units`,
    priced: sql<number>`${t}.priced + excluded.priced`,
    latencies:
      table === 'history_rollups_facets'
        ? sql<Buffer>`${t}.latencies`
        : appendBytes(dialect, sql`${t}.latencies`, sql`excluded.latencies`),
  };
}

/** Drops all of the scope's rollups (its records are being dropped). */
export async function deleteRollups(q: Q, scope: string): Promise<void> {
  await q.deleteFrom('history_rollups_hourly').where('scope', '=', scope).execute();
  await q.deleteFrom('history_rollups_daily').where('scope', '=', scope).execute();
  await q.deleteFrom('history_rollups_facets').where('scope', '=', scope).execute();
}

/**
 * Drops the rollups of the records before `cutMs` (a UTC midnight; its records were just dropped).
 * Hours are whole on either side of it; a day of a zone that straddles it is summed again from the
 * hours that remain.
 */
export async function deleteRollupsBefore(q: Q, dialect: SqlDialect, scope: string, cutMs: number): Promise<void> {
  await q.deleteFrom('history_rollups_hourly').where('scope', '=', scope).where('hour_ms', '<', cutMs).execute();
  for (const zone of ZONES) {
    const day = zoneDayIndex(cutMs, zone);
    await q
      .deleteFrom('history_rollups_daily')
      .where('scope', '=', scope)
      .where('zone', '=', zone)
      .where('day', '<=', day)
      .execute();
    await q
      .deleteFrom('history_rollups_facets')
      .where('scope', '=', scope)
      .where('zone', '=', zone)
      .where('day', '<', day)
      .execute();
    const dims = sql.join(ROLLUP_DIMENSIONS.map((d) => sql.ref(d)));
    await sql`insert into history_rollups_daily (scope, zone, day, ${dims}, records, parts_sum, price_units, priced, latencies)
        select scope, ${zone}, ${day}, ${dims}, sum(records), sum(parts_sum), sum(price_units), sum(priced), ${joinedBytes(dialect, sql.ref('latencies'))}
        from history_rollups_hourly
        where scope = ${scope} and hour_ms >= ${cutMs} and hour_ms < ${zoneDayStart(day + 1, zone)}
        group by scope, ${dims}`.execute(q);
    await rebuildFacets(q, dialect, scope, zone, day);
  }
}

const DIMENSIONS = new Set<string>(ROLLUP_DIMENSIONS);

/** Whether the rollups can answer: every condition is "equals" on a value they are kept by, and there is no free text. */
export function rollupsServe(search: {
  where: readonly { column: string; op: string; value?: unknown }[];
  text?: string;
}): boolean {
  return !search.text && search.where.every((c) => c.op === '=' && DIMENSIONS.has(c.column));
}

/** Instants (ms), both ends inclusive. */
export type Range = { from: number; to: number };

/** A range cut into its whole UTC hours (for the rollups) and the pieces before and after (for the records). */
export function splitByHours(range: Range): { hours: Range | null; edges: Range[] } {
  const first = Math.ceil(range.from / HOUR_MS) * HOUR_MS;
  const last = Math.floor((range.to + 1) / HOUR_MS) * HOUR_MS - HOUR_MS; // the last hour that ends inside
  if (first > last) return { hours: null, edges: [range] };
  const edges: Range[] = [];
  if (range.from < first) edges.push({ from: range.from, to: first - 1 });
  if (last + HOUR_MS <= range.to) edges.push({ from: last + HOUR_MS, to: range.to });
  return { hours: { from: first, to: last }, edges };
}

/**
 * Inclusive ranges cut for counting: whole UTC days (their index, for the daily rollups), whole
 * hours (the hourly ones), and the ragged ends (the records).
 */
export function rollupPlan(ranges: readonly Range[]): { days: number[]; hours: Range[]; edges: Range[] } {
  const plan = { days: [] as number[], hours: [] as Range[], edges: [] as Range[] };
  const byHours = (r: Range) => {
    const split = splitByHours(r);
    if (split.hours) plan.hours.push(split.hours);
    plan.edges.push(...split.edges);
  };
  for (const r of ranges) {
    const firstDay = Math.ceil(r.from / DAY_MS);
    const lastDay = Math.floor((r.to + 1) / DAY_MS) - 1; // the last day that ends inside
    if (firstDay > lastDay) {
      byHours(r);
      continue;
    }
    if (r.from < firstDay * DAY_MS) byHours({ from: r.from, to: firstDay * DAY_MS - 1 });
    for (let d = firstDay; d <= lastDay; d++) plan.days.push(d);
    if ((lastDay + 1) * DAY_MS <= r.to) byHours({ from: (lastDay + 1) * DAY_MS, to: r.to });
  }
  return plan;
}
