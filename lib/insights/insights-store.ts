import 'server-only';
/**
 * Insights' reads of the local history (lib/insights): sums by day, status, network, sender, API key
 * and DLR code, per hour, and the exact delivery latencies, for a search of the local history — the
 * search the transactions table runs (lib/history/local-query.ts), narrowed by the same WHERE
 * (history-search.ts `searchWhere`), so a count here is the count of rows the table lists.
 *
 * Where the sums come from, when every condition of the search is on a value the rollups are kept
 * by (history-rollups.ts): the daily rollups of the query's zone for its whole days, the hourly
 * rollups for the whole hours of a day the range cuts, and the records for what is left (under an
 * hour at either end). A search with any other filter (text, a phone number, a reference, a price
 * or latency bound) sums the records. The rollups' rows are summed by SQL. The records are read
 * once, and everything (sums, hourly counts, latencies) is taken from that one read: from the day
 * packs for complete days (a scan of typed arrays, lib/insights/insights-packs.ts), by SQL for the
 * rest and for a phone number or reference (a filter the packs leave to their own indexes).
 * "Records" in the answer's `source` means either: the same records, summed the same way.
 */
import { sql, type Expression, type ExpressionBuilder, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Zone } from '../time/zones';
import { DAY_MS, HOUR_MS } from '../time/units';
import { zoneDayStart } from '../time/zone-days';
import { zoneOffsetMs } from '../time/zones';
import type { Database, SqlDialect } from '../db/schema';
import type { LocalSearch, RecordReads } from '../history/server';
import { packPlan, utcDaysOf } from '../history';
import {
  readLatencies,
  rollupsServe,
  splitByHours,
  type Facet,
  type Range,
  type RollupDimension,
} from '../history/server';
import { IdSet, packsServe } from '../history/server';
import type { DayPackStore } from '../history/server';
import { CELL_VALUES, cellsOfPacks, type Cell } from './insights-packs';

/** A search of the local history by days of a zone: each day's counted part (inclusive ms). */
export interface InsightsSearch extends Omit<LocalSearch, 'ranges' | 'sort' | 'order'> {
  zone: Zone;
  days: readonly { index: number; from: number; to: number }[];
}

export interface InsightsSums {
  byDay: {
    day: number;
    status: string;
    currency: string;
    records: number;
    parts_sum: number;
    price_units: number;
    priced: number;
  }[];
  byNetwork: { network_code: string; network_name: string; status: string; records: number }[];
  bySender: { from_address: string; status: string; records: number }[];
  byApiKey: { api_key: string; api_key_name: string; status: string; records: number }[];
  byDlr: { dlr_error_code: string; records: number }[];
  /** Where the sums came from. */
  source: 'rollups' | 'records' | 'both';
}

/** Records per UTC hour and status. */
export type HourlyRow = { hour_ms: number; status: string; records: number };

/** Everything Insights reads for a search, from one read of each source. */
export interface InsightsRead {
  sums: InsightsSums;
  /** Empty unless asked for (the hourly chart is drawn for short ranges only). */
  hourly: HourlyRow[];
  /**
   * The delivery latencies (ms) of the search's records per day (records without one are left out),
   * in no order: from the rollups' bytes where they answer, from the records otherwise.
   */
  latencies: Map<number, Float64Array>;
}

export interface InsightsStore {
  /**
   * The sums, the hourly counts and the latencies of a search. The records the rollups cannot
   * answer (a text or latency filter, the ragged ends of a day) are read once for all three: each
   * pass over them costs as much as the other two together (the text index, a lookup per record,
   * a sort), and a search of a month can match hundreds of thousands.
   */
  read(search: InsightsSearch, options: { hourly: boolean }): Promise<InsightsRead>;
}

/** Which source answers which part of the search's days. */
export function planSources(search: InsightsSearch): { days: number[]; hours: Range[]; records: Range[] } {
  if (!rollupsServe(search))
    return { days: [], hours: [], records: search.days.map((d) => ({ from: d.from, to: d.to })) };
  const plan = { days: [] as number[], hours: [] as Range[], records: [] as Range[] };
  for (const d of search.days) {
    const start = zoneDayStart(d.index, search.zone);
    if (d.from === start && d.to === start + DAY_MS - 1) {
      plan.days.push(d.index);
      continue;
    }
    const split = splitByHours(d);
    if (split.hours) plan.hours.push(split.hours);
    plan.records.push(...split.edges);
  }
  return plan;
}

const toNumber = <T extends Record<string, unknown>>(rows: T[], keys: readonly (keyof T)[]): T[] => {
  for (const r of rows) for (const k of keys) (r as Record<keyof T, unknown>)[k] = Number(r[k]);
  return rows;
};

export type { Cell };

/** Rows summed by a key: `make` gives a key's row (its sums at 0), `more` adds what is not `records` (pure). */
function sumBy<I extends { records: number }, T extends { records: number }>(
  rows: readonly I[],
  keyOf: (r: I) => string,
  make: (r: I) => T,
  more?: (into: T, r: I) => void,
): T[] {
  const out = new Map<string, T>();
  for (const r of rows) {
    const key = keyOf(r);
    let row = out.get(key);
    if (!row) out.set(key, (row = { ...make(r), records: 0 }));
    row.records += r.records;
    more?.(row, r);
  }
  return [...out.values()];
}

const k = (...parts: (string | number)[]) => parts.join('\u0000');

/**
 * Each breakdown, summed from rows that carry its values: the cells, or rows of that breakdown
 * from several sources (pure).
 */
const byDayOf = (
  rows: readonly Pick<Cell, 'day' | 'status' | 'currency' | 'records' | 'parts_sum' | 'price_units' | 'priced'>[],
) =>
  sumBy(
    rows,
    (r) => k(r.day, r.status, r.currency),
    (r) => ({
      day: r.day,
      status: r.status,
      currency: r.currency,
      records: 0,
      parts_sum: 0,
      price_units: 0,
      priced: 0,
    }),
    (into, r) => {
      into.parts_sum += r.parts_sum;
      into.price_units += r.price_units;
      into.priced += r.priced;
    },
  );
const byNetworkOf = (rows: readonly Pick<Cell, 'network_code' | 'network_name' | 'status' | 'records'>[]) =>
  sumBy(
    rows,
    (r) => k(r.network_code, r.network_name, r.status),
    (r) => ({ network_code: r.network_code, network_name: r.network_name, status: r.status, records: 0 }),
  );
const bySenderOf = (rows: readonly Pick<Cell, 'from_address' | 'status' | 'records'>[]) =>
  sumBy(
    rows,
    (r) => k(r.from_address, r.status),
    (r) => ({ from_address: r.from_address, status: r.status, records: 0 }),
  );
const byApiKeyOf = (rows: readonly Pick<Cell, 'api_key' | 'api_key_name' | 'status' | 'records'>[]) =>
  sumBy(
    rows,
    (r) => k(r.api_key, r.api_key_name, r.status),
    (r) => ({ api_key: r.api_key, api_key_name: r.api_key_name, status: r.status, records: 0 }),
  );
const byDlrOf = (rows: readonly Pick<Cell, 'dlr_error_code' | 'records'>[]) =>
  sumBy(
    rows,
    (r) => r.dlr_error_code,
    (r) => ({ dlr_error_code: r.dlr_error_code, records: 0 }),
  );

/** The breakdowns Insights shows, from the cells (pure). */
export function breakdownsOf(cells: readonly Cell[]): Omit<InsightsSums, 'source'> {
  return {
    byDay: byDayOf(cells),
    byNetwork: byNetworkOf(cells),
    bySender: bySenderOf(cells),
    byApiKey: byApiKeyOf(cells),
    byDlr: byDlrOf(cells),
  };
}

/** Sums of several sources as one (rows of the same key added). */
export function mergeSums(parts: readonly Omit<InsightsSums, 'source'>[]): Omit<InsightsSums, 'source'> {
  return {
    byDay: byDayOf(parts.flatMap((p) => p.byDay)),
    byNetwork: byNetworkOf(parts.flatMap((p) => p.byNetwork)),
    bySender: bySenderOf(parts.flatMap((p) => p.bySender)),
    byApiKey: byApiKeyOf(parts.flatMap((p) => p.byApiKey)),
    byDlr: byDlrOf(parts.flatMap((p) => p.byDlr)),
  };
}

/** Counts per UTC hour and status, rows of the same hour and status added (pure). */
function hourlySums(rows: readonly HourlyRow[]): HourlyRow[] {
  return sumBy(
    rows,
    (r) => `${r.hour_ms}\u0000${r.status}`,
    (r) => ({ hour_ms: r.hour_ms, status: r.status, records: 0 }),
  );
}

/**
 * Each day's latencies: the rollups' bytes, then the records'. Every day of the search has an
 * entry, empty when it has none (pure).
 */
function latenciesByDay(
  search: InsightsSearch,
  kept: readonly { day: number; latencies: Buffer }[],
  records: ReadonlyMap<number, readonly ArrayLike<number>[]>,
): Map<number, Float64Array> {
  const out = new Map<number, Float64Array>();
  for (const d of search.days) out.set(d.index, new Float64Array(0));
  const bytes = new Map<number, Buffer[]>();
  for (const b of kept) (bytes.get(b.day) ?? bytes.set(b.day, []).get(b.day)!).push(b.latencies);
  for (const day of new Set([...bytes.keys(), ...records.keys()])) {
    const blobs = bytes.get(day) ?? [];
    const pieces = records.get(day) ?? [];
    const into = new Float64Array(
      blobs.reduce((n, b) => n + b.byteLength / 4, 0) + pieces.reduce((n, p) => n + p.length, 0),
    );
    let at = 0;
    for (const b of blobs) at = readLatencies(b, into, at);
    for (const p of pieces) {
      into.set(p, at);
      at += p.length;
    }
    out.set(day, into);
  }
  return out;
}

/** The SQL read's latencies (one text list per row) per day: each day's lists parsed at once, as JSON (a day may hold tens of thousands). */
function listedLatencies(rows: readonly { day: number; latencies: string | null }[]): Map<number, number[][]> {
  const texts = new Map<number, string[]>();
  for (const r of rows) if (r.latencies) (texts.get(r.day) ?? texts.set(r.day, []).get(r.day)!).push(r.latencies);
  return new Map([...texts].map(([day, lists]) => [day, [JSON.parse(`[${lists.join(',')}]`) as number[]]]));
}

/** `records`: the local history's reads of its records (lib/history/store/history-search.ts), whose WHERE and free text the sums share. */
export function createInsightsStore(
  db: Kysely<Database>,
  dialect: SqlDialect,
  dayPacks: DayPackStore,
  records: RecordReads,
): InsightsStore {
  type Table = 'history_rollups_daily' | 'history_rollups_hourly';
  /** The search's conditions on a rollup table (all of them are on its values: rollupsServe). */
  const rollupConditions = <T extends Table>(
    eb: ExpressionBuilder<Database, T>,
    search: InsightsSearch,
  ): Expression<SqlBool>[] =>
    search.where.map((c) => eb(eb.ref(c.column as RollupDimension) as never, '=', c.value as never));

  const SUMS = ['records', 'parts_sum', 'price_units', 'priced'] as const;

  /** The rollups' rows, one shape: day (in the zone), the values, the sums. */
  const rollupCellsOf = (
    search: InsightsSearch,
    days: readonly number[],
    hours: readonly Range[],
  ): RawBuilder<unknown> | null => {
    const offset = sql.lit(zoneOffsetMs(search.zone));
    const day = sql.lit(DAY_MS);
    const parts: RawBuilder<unknown>[] = [];
    if (days.length > 0) {
      const q = db
        .selectFrom('history_rollups_daily')
        .select(['day', ...CELL_VALUES, ...SUMS])
        .where((eb) =>
          eb.and([
            eb('scope', '=', search.scope),
            eb('zone', '=', search.zone),
            eb('day', 'in', [...days]),
            ...rollupConditions(eb, search),
          ]),
        );
      parts.push(sql`select * from ${q} as ${sql.raw(`part${parts.length}`)}`);
    }
    if (hours.length > 0) {
      const q = db
        .selectFrom('history_rollups_hourly')
        .select([sql<number>`(hour_ms + ${offset}) / ${day}`.as('day'), ...CELL_VALUES, ...SUMS])
        .where((eb) =>
          eb.and([
            eb('scope', '=', search.scope),
            eb.or(hours.map((h) => eb.between('hour_ms', h.from, h.to))),
            ...rollupConditions(eb, search),
          ]),
        );
      parts.push(sql`select * from ${q} as ${sql.raw(`part${parts.length}`)}`);
    }
    if (parts.length === 0) return null;
    return sql.join(parts, sql` union all `);
  };

  const int = (e: RawBuilder<unknown>) => sql`cast(${e} as bigint)`;
  const sum = (column: string) => int(sql`sum(${sql.ref(column)})`);
  const run = async <T extends Record<string, unknown>>(query: RawBuilder<T>, numbers: (keyof T)[]): Promise<T[]> =>
    toNumber((await query.execute(db)).rows, numbers);

  /**
   * Sums of the rollups' whole days and hours. Their rows are already summed: SQL sums them per
   * day (one sort), and once more per combination of the breakdowns' values over the whole range —
   * a few thousand rows at most, from which the breakdowns are read — rather than sorting the rows
   * once per breakdown.
   */
  const sumsOfRollups = async (
    search: InsightsSearch,
    days: readonly number[],
    hours: readonly Range[],
  ): Promise<Omit<InsightsSums, 'source'>> => {
    const cells = rollupCellsOf(search, days, hours);
    if (!cells) return { byDay: [], byNetwork: [], bySender: [], byApiKey: [], byDlr: [] };
    const from = sql`from (${cells}) cells`;
    const byDay = await run(
      sql<
        InsightsSums['byDay'][number]
      >`select day, status, currency, ${sum('records')} as records, ${sum('parts_sum')} as parts_sum, ${sum('price_units')} as price_units, ${sum('priced')} as priced ${from} group by day, status, currency`,
      ['day', 'records', 'parts_sum', 'price_units', 'priced'],
    );
    const kept = [
      'status',
      'network_code',
      'network_name',
      'from_address',
      'api_key',
      'api_key_name',
      'dlr_error_code',
    ] as const;
    const keys = sql.join(kept.map((v) => sql.ref(v)));
    const combos = await run(sql<Cell>`select ${keys}, ${sum('records')} as records ${from} group by ${keys}`, [
      'records',
    ]);
    return {
      byDay,
      byNetwork: byNetworkOf(combos),
      bySender: bySenderOf(combos),
      byApiKey: byApiKeyOf(combos),
      byDlr: byDlrOf(combos),
    };
  };

  /** Sums of the whole days of an unfiltered search, from the facets (each breakdown kept apart). */
  const sumsOfFacets = async (search: InsightsSearch, days: number[]): Promise<Omit<InsightsSums, 'source'>> => {
    const base = db
      .selectFrom('history_rollups_facets')
      .where('scope', '=', search.scope)
      .where('zone', '=', search.zone)
      .where('day', 'in', days);
    const byDay = toNumber(
      await base
        .where('facet', '=', 'day')
        .select([
          'day',
          'status',
          'currency',
          int(sql`sum(records)`).as('records'),
          int(sql`sum(parts_sum)`).as('parts_sum'),
          int(sql`sum(price_units)`).as('price_units'),
          int(sql`sum(priced)`).as('priced'),
        ])
        .groupBy(['day', 'status', 'currency'])
        .execute(),
      ['day', 'records', 'parts_sum', 'price_units', 'priced'],
    ) as InsightsSums['byDay'];
    const others = toNumber(
      await base
        .where('facet', '<>', 'day')
        .select(['facet', 'key1', 'key2', 'status', int(sql`sum(records)`).as('records')])
        .groupBy(['facet', 'key1', 'key2', 'status'])
        .execute(),
      ['records'],
    ) as { facet: Facet; key1: string; key2: string; status: string; records: number }[];
    const of = (facet: Facet) => others.filter((r) => r.facet === facet);
    return {
      byDay,
      byNetwork: of('network').map((r) => ({
        network_code: r.key1,
        network_name: r.key2,
        status: r.status,
        records: r.records,
      })),
      bySender: of('sender').map((r) => ({ from_address: r.key1, status: r.status, records: r.records })),
      byApiKey: of('api_key').map((r) => ({
        api_key: r.key1,
        api_key_name: r.key2,
        status: r.status,
        records: r.records,
      })),
      byDlr: byDlrOf(of('dlr').map((r) => ({ dlr_error_code: r.key1, records: r.records }))),
    };
  };

  /** Whether a search has no filter at all: then its whole days are read from the facets. */
  const unfiltered = (search: InsightsSearch) => search.where.length === 0 && !search.text;

  /** Hourly counts of the rollups' whole days and hours (whole days count by their hours here: the daily rollups have none). */
  const hourlyOfRollups = async (
    search: InsightsSearch,
    days: readonly number[],
    hours: readonly Range[],
  ): Promise<HourlyRow[]> => {
    const all = [
      ...hours,
      ...days.map((d) => ({ from: zoneDayStart(d, search.zone), to: zoneDayStart(d + 1, search.zone) - HOUR_MS })),
    ];
    if (all.length === 0) return [];
    const rows = await db
      .selectFrom('history_rollups_hourly')
      .select(['hour_ms', 'status', int(sql`sum(records)`).as('records')])
      .where((eb) =>
        eb.and([
          eb('scope', '=', search.scope),
          eb.or(all.map((h) => eb.between('hour_ms', h.from, h.to))),
          ...rollupConditions(eb, search),
        ]),
      )
      .groupBy(['hour_ms', 'status'])
      .execute();
    return toNumber(rows as HourlyRow[], ['hour_ms', 'records']);
  };

  /** The latencies the rollups keep (bytes) for their whole days and hours. */
  const latencyBytesOfRollups = async (
    search: InsightsSearch,
    days: readonly number[],
    hours: readonly Range[],
  ): Promise<{ day: number; latencies: Buffer }[]> => {
    const bytes: { day: number; latencies: Buffer }[] = [];
    if (days.length > 0) {
      const rows = unfiltered(search)
        ? await db
            .selectFrom('history_rollups_facets')
            .select(['day', 'latencies'])
            .where((eb) =>
              eb.and([
                eb('scope', '=', search.scope),
                eb('zone', '=', search.zone),
                eb('day', 'in', [...days]),
                eb('facet', '=', 'day'),
              ]),
            )
            .execute()
        : await db
            .selectFrom('history_rollups_daily')
            .select(['day', 'latencies'])
            .where((eb) =>
              eb.and([
                eb('scope', '=', search.scope),
                eb('zone', '=', search.zone),
                eb('day', 'in', [...days]),
                ...rollupConditions(eb, search),
              ]),
            )
            .execute();
      bytes.push(...rows);
    }
    if (hours.length > 0) {
      bytes.push(
        ...(await db
          .selectFrom('history_rollups_hourly')
          .select([
            sql<number>`(hour_ms + ${sql.lit(zoneOffsetMs(search.zone))}) / ${sql.lit(DAY_MS)}`.as('day'),
            'latencies',
          ])
          .where((eb) =>
            eb.and([
              eb('scope', '=', search.scope),
              eb.or(hours.map((h) => eb.between('hour_ms', h.from, h.to))),
              ...rollupConditions(eb, search),
            ]),
          )
          .execute()),
      );
    }
    return bytes.map((b) => ({ day: Number(b.day), latencies: b.latencies }));
  };

  /**
   * The records of `ranges` that the search keeps, read once: their count and sums per day and
   * combination of values (the cells), per UTC hour and status, and each day's latencies. The
   * complete days' parts from their day packs, when the packs can
   * test every condition (lib/insights/insights-packs.ts); the rest by SQL (when there are packs,
   * the rest is the edges of the range, a few records whose text is read rather than looked up).
   */
  const readRecords = async (
    search: InsightsSearch,
    ranges: readonly Range[],
  ): Promise<{ cells: Cell[]; hourly: HourlyRow[]; latencies: Map<number, ArrayLike<number>[]> }> => {
    const packs = packsServe(search.where)
      ? await dayPacks.packs(search.scope, utcDaysOf(ranges))
      : new Map<string, never>();
    const plan = packPlan(ranges, new Set(packs.keys()));
    const rest = [...plan.before, ...plan.between, ...plan.after];
    const sqlCells = rest.length > 0 ? await cellsBySql(search, rest) : [];
    const read = {
      cells: sqlCells as Cell[],
      hourly: sqlCells as HourlyRow[],
      latencies: listedLatencies(sqlCells) as Map<number, ArrayLike<number>[]>,
    };
    if (plan.packed.length === 0) return read;
    const ids =
      search.text === undefined
        ? undefined
        : new IdSet(await records.textIds({ scope: search.scope, ranges: plan.packed, text: search.text }));
    const packed = cellsOfPacks(
      [...packs.values()],
      { ranges: plan.packed, where: search.where, ...(ids ? { ids } : {}) },
      search.zone,
    );
    for (const [day, pieces] of packed.latencies)
      (read.latencies.get(day) ?? read.latencies.set(day, []).get(day)!).push(...pieces);
    return {
      cells: [...read.cells, ...packed.cells],
      hourly: [...read.hourly, ...packed.hourly],
      latencies: read.latencies,
    };
  };

  /**
   * readRecords by SQL: per UTC hour and combination of values, their count, sums and latencies
   * (as text, one list per row). A zone's days start on a whole UTC hour (lib/time/zones.ts), so an
   * hour belongs to one day of either zone.
   */
  const cellsBySql = async (
    search: InsightsSearch,
    ranges: readonly Range[],
  ): Promise<(Cell & { hour_ms: number; latencies: string | null })[]> => {
    const resolved = await records.resolve({ ...search, ranges, order: 'desc' });
    if (!resolved) return [];
    const latencyList =
      dialect === 'postgres'
        ? sql<string | null>`string_agg(latency_ms::text, ',')`
        : sql<string | null>`group_concat(latency_ms)`;
    const rows = await db
      .selectFrom('history_records')
      .select([
        sql<number>`received_ms / ${sql.lit(HOUR_MS)}`.as('hour'),
        ...CELL_VALUES,
        int(sql`count(*)`).as('records'),
        int(sql`sum(coalesce(parts, 0))`).as('parts_sum'),
        int(sql`sum(coalesce(price_units, 0))`).as('price_units'),
        int(sql`count(price_units)`).as('priced'),
        latencyList.as('latencies'),
      ])
      .where(records.where(resolved))
      .groupBy(sql`1`)
      .groupBy([...CELL_VALUES])
      .execute();
    // In place: a month of a broad filter gives tens of thousands of rows.
    const offset = zoneOffsetMs(search.zone);
    const cells = rows as unknown as (Cell & { hour: number; hour_ms: number; latencies: string | null })[];
    for (const c of cells) {
      c.hour_ms = Number(c.hour) * HOUR_MS;
      c.day = Math.floor((c.hour_ms + offset) / DAY_MS);
      c.records = Number(c.records);
      c.parts_sum = Number(c.parts_sum);
      c.price_units = Number(c.price_units);
      c.priced = Number(c.priced);
    }
    return cells;
  };

  return {
    async read(search, options) {
      const plan = planSources(search);
      const source: InsightsSums['source'] =
        plan.days.length + plan.hours.length === 0 ? 'records' : plan.records.length === 0 ? 'rollups' : 'both';
      const {
        cells: records,
        hourly: recordsHourly,
        latencies: recordLatencies,
      } = plan.records.length > 0
        ? await readRecords(search, plan.records)
        : { cells: [], hourly: [], latencies: new Map<number, ArrayLike<number>[]>() };

      // Whole days: from the facets when nothing is filtered (each breakdown kept apart), else from the daily rows.
      const facetDays = unfiltered(search) ? plan.days : [];
      const dailyDays = unfiltered(search) ? [] : plan.days;
      const parts = [breakdownsOf(records)];
      if (facetDays.length > 0) parts.push(await sumsOfFacets(search, facetDays));
      if (dailyDays.length > 0 || plan.hours.length > 0) parts.push(await sumsOfRollups(search, dailyDays, plan.hours));
      const sums = { ...mergeSums(parts), source };

      const hourly = options.hourly
        ? hourlySums([...(await hourlyOfRollups(search, plan.days, plan.hours)), ...recordsHourly])
        : [];
      const latencies = latenciesByDay(
        search,
        await latencyBytesOfRollups(search, plan.days, plan.hours),
        recordLatencies,
      );
      return { sums, hourly, latencies };
    },
  };
}
