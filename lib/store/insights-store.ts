import 'server-only';
/**
 * Insights' reads of the local history (lib/insights): sums per hour and breakdown, and the exact
 * delivery latencies of the records, for a search of the local history — the same search the
 * transactions table runs (lib/history/local-query.ts), narrowed by the same WHERE
 * (history-store.ts `searchWhere`), so a count here is the count of rows the table lists.
 *
 * Sums come from the hourly rollups (history-rollups.ts) for every whole hour of the ranges when
 * each condition of the search is on a value the rollups are kept by; from the records themselves
 * for the ends of a range that are not whole hours, and for a search with any other filter (text, a
 * phone number, a reference, a price or latency bound). Both give rows of one shape.
 */
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import type { Database, HistoryRollupsTable, SqlDialect } from './db/schema';
import { searchWhere, type Condition, type LocalSearch } from './history-store';
import { HOUR_MS, ROLLUP_DIMENSIONS, type RollupDimension } from './history-rollups';

/** The records of one hour and one combination of values: what every aggregate is folded from. */
export type InsightsCell = Omit<HistoryRollupsTable, 'scope'>;

export interface InsightsStore {
  /** Sums per UTC hour and combination of values over the search's ranges. */
  cells(search: LocalSearch): Promise<{ cells: InsightsCell[]; source: 'rollups' | 'records' | 'both' }>;
  /** The delivery latencies (ms) of the search's records, ascending (records without one are left out). */
  latencies(search: LocalSearch): Promise<Float64Array>;
}

const DIMENSIONS = new Set<string>(ROLLUP_DIMENSIONS);

/** Whether the rollups can answer: every condition is "equals" on a value they are kept by, and there is no free text. */
export function rollupsServe(search: Pick<LocalSearch, 'where' | 'text'>): boolean {
  return !search.text && search.where.every((c) => c.op === '=' && DIMENSIONS.has(c.column));
}

/** A range cut into its whole UTC hours (for the rollups) and the pieces before and after (for the records). */
export function splitByHours(range: { from: number; to: number }): { hours: { from: number; to: number } | null; edges: { from: number; to: number }[] } {
  const first = Math.ceil(range.from / HOUR_MS) * HOUR_MS;
  const last = Math.floor((range.to + 1) / HOUR_MS) * HOUR_MS - HOUR_MS; // the last hour that ends inside
  if (first > last) return { hours: null, edges: [range] };
  const edges: { from: number; to: number }[] = [];
  if (range.from < first) edges.push({ from: range.from, to: first - 1 });
  if (last + HOUR_MS <= range.to) edges.push({ from: last + HOUR_MS, to: range.to });
  return { hours: { from: first, to: last }, edges };
}

export function createInsightsStore(db: Kysely<Database>, dialect: SqlDialect): InsightsStore {
  const fromRollups = async (search: LocalSearch, hours: { from: number; to: number }[]): Promise<InsightsCell[]> => {
    if (hours.length === 0) return [];
    return db
      .selectFrom('history_rollups')
      .select(['hour_ms', ...ROLLUP_DIMENSIONS, 'records', 'parts_sum', 'price_units', 'priced'])
      .where((eb: ExpressionBuilder<Database, 'history_rollups'>) => {
        const parts: Expression<SqlBool>[] = [eb('scope', '=', search.scope)];
        parts.push(eb.or(hours.map((h) => eb.between('hour_ms', h.from, h.to))));
        for (const c of search.where as (Condition & { op: '=' })[]) parts.push(eb(c.column as RollupDimension, '=', c.value as never));
        return eb.and(parts);
      })
      .execute();
  };

  const fromRecords = async (search: LocalSearch, ranges: { from: number; to: number }[]): Promise<InsightsCell[]> => {
    if (ranges.length === 0) return [];
    const int = (e: ReturnType<typeof sql>) => sql<number>`cast(${e} as bigint)`;
    return db
      .selectFrom('history_records')
      .select([
        sql<number>`(received_ms / ${sql.lit(HOUR_MS)}) * ${sql.lit(HOUR_MS)}`.as('hour_ms'),
        'status',
        'network_code',
        'network_name',
        'from_address',
        'api_key',
        'api_key_name',
        'enterprise_id',
        'delivery_method',
        'dlr_error_code',
        sql<number>`coalesce(parts, 0)`.as('parts'),
        'currency',
        int(sql`count(*)`).as('records'),
        int(sql`coalesce(sum(parts), 0)`).as('parts_sum'),
        int(sql`coalesce(sum(price_units), 0)`).as('price_units'),
        int(sql`count(price_units)`).as('priced'),
      ])
      .where(searchWhere({ ...search, ranges }, dialect))
      .groupBy([sql`1`, 'status', 'network_code', 'network_name', 'from_address', 'api_key', 'api_key_name', 'enterprise_id', 'delivery_method', 'dlr_error_code', sql`11`, 'currency'])
      .execute();
  };

  return {
    async cells(search) {
      if (search.ranges.length === 0) return { cells: [], source: 'rollups' };
      if (!rollupsServe(search)) return { cells: await fromRecords(search, [...search.ranges]), source: 'records' };
      const hours: { from: number; to: number }[] = [];
      const edges: { from: number; to: number }[] = [];
      for (const range of search.ranges) {
        const split = splitByHours(range);
        if (split.hours) hours.push(split.hours);
        edges.push(...split.edges);
      }
      const cells = [...(await fromRollups(search, hours)), ...(await fromRecords(search, edges))];
      return { cells, source: edges.length === 0 ? 'rollups' : hours.length === 0 ? 'records' : 'both' };
    },

    async latencies(search) {
      if (search.ranges.length === 0) return new Float64Array(0);
      // One text of the values rather than a row each: a day holds tens of thousands of them.
      const joined = dialect === 'postgres' ? sql<string | null>`string_agg(latency_ms::text, ',')` : sql<string | null>`group_concat(latency_ms)`;
      const row = await db
        .selectFrom('history_records')
        .select(joined.as('values'))
        .where(searchWhere(search, dialect))
        .where('latency_ms', 'is not', null)
        .executeTakeFirst();
      const text = row?.values ?? '';
      if (text === '') return new Float64Array(0);
      const values = Float64Array.from(text.split(','), Number);
      return values.sort();
    },
  };
}
