import 'server-only';
/**
 * The rollups Insights reads (migration 0010-insights): per scope, the records of each combination
 * of the values it breaks down and filters by, with their parts and price — per UTC hour, and per
 * day of each zone. Added to in the transaction that stores the records (only records really
 * inserted: one already held is not counted twice) and dropped with them, so they always equal
 * the records.
 */
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import { ZONES, type Zone } from '../time/zones';
import { DAY_MS, HOUR_MS, zoneDayIndex, zoneDayStart } from '../time/zone-days';
import type { Database, HistoryRecordsTable, RollupSums, SqlDialect } from './db/schema';

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

/** What a stored record gives its rollup rows. */
export type RolledRecord = Pick<HistoryRecordsTable, RollupDimension | 'received_ms' | 'price_units' | 'latency_ms'>;

/** The record columns to read back from an insert (RETURNING) to roll it up. */
export const ROLLED_COLUMNS = [...ROLLUP_DIMENSIONS, 'received_ms', 'price_units', 'latency_ms'] as const;

/** Latencies as a rollup keeps them: 32-bit big-endian integers, one after another. */
export function latencyBytes(values: readonly number[]): Buffer {
  const out = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => out.writeInt32BE(v, i * 4));
  return out;
}

/** Appends the latencies of a rollup's bytes to `into` from `at`; answers where it stopped. */
export function readLatencies(bytes: Uint8Array, into: Float64Array, at: number): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i + 4 <= bytes.byteLength; i += 4) into[at++] = view.getInt32(i, false);
  return at;
}

/** The bytes of two rollups' latencies together (an upsert's), and of a group of rows (an aggregate). */
export function appendBytes(dialect: SqlDialect, stored: RawBuilder<unknown>, added: RawBuilder<unknown>): RawBuilder<Buffer> {
  // SQLite's || joins text: the bytes go through hex to stay bytes.
  return dialect === 'postgres' ? sql<Buffer>`${stored} || ${added}` : sql<Buffer>`unhex(hex(${stored}) || hex(${added}))`;
}

export function joinedBytes(dialect: SqlDialect, column: RawBuilder<unknown>): RawBuilder<Buffer> {
  return dialect === 'postgres' ? sql<Buffer>`coalesce(string_agg(${column}, ''::bytea), ''::bytea)` : sql<Buffer>`coalesce(unhex(group_concat(hex(${column}), '')), x'')`;
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
const FACET_KEY = ['scope', 'zone', 'day', 'facet', 'key1', 'key2', 'status', 'currency'] as const;

type FacetRow = Omit<Database['history_rollups_facets'], 'scope'>;

/** The facet rows of daily rows (pure). */
export function facetRowsOf(daily: readonly (RollupSums & { zone: Zone; day: number })[]): FacetRow[] {
  const rows = new Map<string, FacetRow>();
  const none = Buffer.alloc(0);
  for (const d of daily) {
    for (const facet of FACET_NAMES) {
      const { key1, key2 } = FACETS[facet];
      const k1 = key1 ? String(d[key1]) : '';
      const k2 = key2 ? String(d[key2]) : '';
      const currency = facet === 'day' ? d.currency : '';
      // A stored page gives hundreds of daily rows, each in five facets: the key without an object.
      const key = `${d.zone}\u0000${d.day}\u0000${facet}\u0000${k1}\u0000${k2}\u0000${d.status}\u0000${currency}`;
      let into = rows.get(key);
      if (!into) rows.set(key, (into = { zone: d.zone, day: d.day, facet, key1: k1, key2: k2, status: d.status, currency, records: 0, parts_sum: 0, price_units: 0, priced: 0, latencies: none }));
      into.records += d.records;
      into.parts_sum += d.parts_sum;
      into.price_units += d.price_units;
      into.priced += d.priced;
    }
  }
  // The day facet's latencies are filled when the day is complete (refreshDayFacets), not page by
  // page: appended page by page, a day's blob would be rewritten at every page (quadratic writes).
  return [...rows.values()];
}

/**
 * When a UTC day's copy is complete: its day facets, with their latencies, summed again from its
 * daily rows — for the UTC day and for the two JST days it touches.
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
  await q.deleteFrom('history_rollups_facets').where('scope', '=', scope).where('zone', '=', zone).where('day', '=', day).execute();
  for (const facet of FACET_NAMES) {
    const { key1, key2 } = FACETS[facet];
    const k1 = key1 ? sql.ref(key1) : sql`''`;
    const k2 = key2 ? sql.ref(key2) : sql`''`;
    const currency = facet === 'day' ? sql.ref('currency') : sql`''`;
    const latencies = facet === 'day' ? joinedBytes(dialect, sql.ref('latencies')) : sql`${Buffer.alloc(0)}`;
    // PostgreSQL refuses a constant in GROUP BY: only the columns.
    const groups = sql.join([sql.ref('status'), ...[key1, key2, facet === 'day' ? 'currency' : null].filter((c): c is string => c !== null).map((c) => sql.ref(c))]);
    await sql`insert into history_rollups_facets (scope, zone, day, facet, key1, key2, status, currency, records, parts_sum, price_units, priced, latencies)
        select ${scope}, ${zone}, ${day}, ${facet}, ${k1}, ${k2}, status, ${currency}, sum(records), sum(parts_sum), sum(price_units), sum(priced), ${latencies}
        from history_rollups_daily
        where scope = ${scope} and zone = ${zone} and day = ${day}
        group by ${groups}`.execute(q);
  }
}

/** Rows per upsert (18 values each: well under either dialect's parameter limit). */
const ROWS_PER_UPSERT = 500;

type Q = Kysely<Database> | Transaction<Database>;

/** Records summed per time bucket (`bucketOf`) and combination of values (pure). */
export function foldRecords<B>(records: readonly RolledRecord[], bucketOf: (receivedMs: number) => B): (RollupSums & { bucket: B })[] {
  const rows = new Map<string, Omit<RollupSums, 'latencies'> & { bucket: B; latencyList: number[] }>();
  for (const r of records) {
    const bucket = bucketOf(r.received_ms);
    const parts = r.parts ?? 0;
    const key = [String(bucket), r.status, r.network_code, r.network_name, r.from_address, r.api_key, r.api_key_name, r.enterprise_id, r.delivery_method, r.dlr_error_code, parts, r.currency].join('\u0000');
    let row = rows.get(key);
    if (!row) {
      row = {
        bucket,
        status: r.status,
        network_code: r.network_code,
        network_name: r.network_name,
        from_address: r.from_address,
        api_key: r.api_key,
        api_key_name: r.api_key_name,
        enterprise_id: r.enterprise_id,
        delivery_method: r.delivery_method,
        dlr_error_code: r.dlr_error_code,
        parts,
        currency: r.currency,
        records: 0,
        parts_sum: 0,
        price_units: 0,
        priced: 0,
        latencyList: [],
      };
      rows.set(key, row);
    }
    row.records += 1;
    row.parts_sum += parts;
    if (r.price_units !== null) {
      row.price_units += r.price_units;
      row.priced += 1;
    }
    if (r.latency_ms !== null) row.latencyList.push(r.latency_ms);
  }
  return [...rows.values()].map(({ latencyList, ...row }) => ({ ...row, latencies: latencyBytes(latencyList) }));
}

/** Adds newly stored records to the scope's rollups (inside the transaction that stored them). */
export async function addToRollups(q: Q, dialect: SqlDialect, scope: string, records: readonly RolledRecord[]): Promise<void> {
  if (records.length === 0) return;
  const hourly = foldRecords(records, (ms) => Math.floor(ms / HOUR_MS) * HOUR_MS).map(({ bucket, ...sums }) => ({ scope, hour_ms: bucket, ...sums }));
  for (let i = 0; i < hourly.length; i += ROWS_PER_UPSERT) {
    await q
      .insertInto('history_rollups_hourly')
      .values(hourly.slice(i, i + ROWS_PER_UPSERT))
      .onConflict((oc) => oc.columns(['scope', 'hour_ms', ...ROLLUP_DIMENSIONS]).doUpdateSet(qualified(dialect, 'history_rollups_hourly')))
      .execute();
  }
  for (const zone of ZONES) {
    const daily = foldRecords(records, (ms) => zoneDayIndex(ms, zone)).map(({ bucket, ...sums }) => ({ scope, zone, day: bucket, ...sums }));
    for (let i = 0; i < daily.length; i += ROWS_PER_UPSERT) {
      await q
        .insertInto('history_rollups_daily')
        .values(daily.slice(i, i + ROWS_PER_UPSERT))
        .onConflict((oc) => oc.columns(['scope', 'zone', 'day', ...ROLLUP_DIMENSIONS]).doUpdateSet(qualified(dialect, 'history_rollups_daily')))
        .execute();
    }
    const facets = facetRowsOf(daily).map((row) => ({ scope, ...row }));
    for (let i = 0; i < facets.length; i += ROWS_PER_UPSERT) {
      await q
        .insertInto('history_rollups_facets')
        .values(facets.slice(i, i + ROWS_PER_UPSERT))
        .onConflict((oc) => oc.columns([...FACET_KEY]).doUpdateSet(qualified(dialect, 'history_rollups_facets')))
        .execute();
    }
  }
}

/**
 * The sums added in an upsert, the stored values named by their table (PostgreSQL needs it).
 * Latencies are appended where rows stay small (an hour's, a day's of one combination of values);
 * the facets' are left as they are (refreshDayFacets fills them).
 */
function qualified(dialect: SqlDialect, table: 'history_rollups_hourly' | 'history_rollups_daily' | 'history_rollups_facets') {
  const t = sql.table(table);
  return {
    records: sql<number>`${t}.records + excluded.records`,
    parts_sum: sql<number>`${t}.parts_sum + excluded.parts_sum`,
    price_units: sql<number>`${t}.price_units + excluded.price_units`,
    priced: sql<number>`${t}.priced + excluded.priced`,
    latencies: table === 'history_rollups_facets' ? sql<Buffer>`${t}.latencies` : appendBytes(dialect, sql`${t}.latencies`, sql`excluded.latencies`),
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
    await q.deleteFrom('history_rollups_daily').where('scope', '=', scope).where('zone', '=', zone).where('day', '<=', day).execute();
    await q.deleteFrom('history_rollups_facets').where('scope', '=', scope).where('zone', '=', zone).where('day', '<', day).execute();
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
export function rollupsServe(search: { where: readonly { column: string; op: string; value?: unknown }[]; text?: string }): boolean {
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
