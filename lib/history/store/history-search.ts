import 'server-only';
/**
 * Searches of the local history's data (the records the history writer stores: ./writes.ts):
 * counts, pages in any order, a record by trx_id. A search is first made ready (its scope's
 * number, the ids its free text finds: ./text-search.ts), then the planner (./search-plan.ts)
 * picks the executor its shape allows — the rollups, the day packs or SQL — and the records of
 * the page are read from their blocks (./bodies.ts).
 *
 * Every search names its scope: one account's local history is never read for another, and its free text
 * reads that account's text index only.
 */
import type { Kysely } from 'kysely';
import type { Database, SqlDialect } from '../../db/schema';
import { bodiesOf, recordOf } from './bodies';
import type { DayPackStore } from './day-pack-store';
import { createScopeNumbers, scopeNoSql } from './scopes';
import { createPackSearch } from './search-packs';
import { FEW_FINDS, orderFromIndex, textFirst, wayOf } from './search-plan';
import { createRollupSearch } from './search-rollups';
import { createSqlSearch, isSelective, ORDER_INDEXED, searchWhere, type SearchWhere } from './search-sql';
import type { LocalSearch, ResolvedSearch } from './search-types';
import type { TextIds, TextIndex } from './text-search';

export type { Condition, LocalSearch, RecordColumn, ResolvedSearch, SortKey } from './search-types';

/** Values looked up per statement by `records`: far below either dialect's parameter limit. */
const RECORDS_PER_STATEMENT = 500;

export interface HistorySearch {
  /** The record of a trx_id in the scope's local history (JSON), or null. */
  record(scope: string, trxId: string): Promise<string | null>;
  /**
   * The records (JSON) the scope's local history holds whose `column` is one of `values` (trx_ids
   * in lower case, numbers, references), in no order: a list of thousands read with a statement per
   * few hundred, each through the column's index, not one statement each (a reconciliation's list).
   */
  records(scope: string, column: 'trx_id' | 'to_address' | 'ref', values: readonly string[]): Promise<string[]>;
  count(search: LocalSearch): Promise<number>;
  /** The records (JSON) at positions [offset, offset + limit) of the search's order. */
  page(search: LocalSearch, offset: number, limit: number): Promise<string[]>;
  /**
   * count and page together, as a search of the table asks: a search the rollups cannot count
   * reads its matching rows once for both (a free text matching 70,000 records of a month, read
   * twice, cost twice).
   */
  slice(search: LocalSearch, offset: number, limit: number): Promise<{ total: number; bodies: string[] }>;
  /** Records the scope holds received in [from, to], both included (the received-time index counts them). */
  countHeld(scope: string, from: number, to: number): Promise<number>;
  /** Records kept for the scope. */
  size(scope: string): Promise<{ records: number }>;
}

/** What Insights reads of the records through the same rules (lib/insights/insights-store.ts). */
export interface RecordReads {
  /** The search made ready (null: the scope has no records at all). */
  resolve(search: LocalSearch): Promise<ResolvedSearch | null>;
  /** Its WHERE on history_records: the one a count of the table's search uses. */
  where(search: ResolvedSearch): SearchWhere;
  /** The ids of the scope's records its free text finds (over the UTC months of `ranges`). */
  textIds(search: Pick<LocalSearch, 'scope' | 'ranges'> & { text: string }): Promise<TextIds>;
}

/**
 * `fewFinds`: up to how many finds a free text is looked up record by record rather than through
 * the day packs (a test sets 0 to have the packs answer every text).
 */
export function createHistorySearch(
  db: Kysely<Database>,
  dialect: SqlDialect,
  dayPacks: DayPackStore,
  text: TextIndex,
  options: { fewFinds?: number } = {},
): HistorySearch & { reads: RecordReads } {
  const fewFinds = options.fewFinds ?? FEW_FINDS;
  const scopes = createScopeNumbers(db);
  const sql = createSqlSearch(db);
  const plainWhere = (search: ResolvedSearch) => searchWhere(search, dialect, text);
  const countRecords = (search: ResolvedSearch) => sql.count(search, plainWhere(search));
  const rollups = createRollupSearch(db, countRecords);
  const packs = createPackSearch(dayPacks, sql, plainWhere);

  const resolve = async (search: LocalSearch): Promise<ResolvedSearch | null> => {
    const scopeNo = await scopes.numberOf(search.scope);
    if (scopeNo === null) return null;
    // The finds as ids when the text index answers so (SQLite), or when the packs may answer.
    const wanted =
      search.text !== undefined && search.ranges.length > 0 && (text.needsIds || wayOf(search, Infinity) === 'packs');
    const textIds = wanted ? await text.matchIds(scopeNo, search.ranges, search.text!) : null;
    return { ...search, scopeNo, textIds };
  };

  /**
   * The WHERE SQL reads (SQLite: which index, see searchWhere): the free text's finds first when
   * they are fewer; an order's own index when it reads fewer records than sorting the range
   * (`end`: the offset and limit of the page).
   */
  const sqlWhere = async (search: ResolvedSearch, end = 0): Promise<SearchWhere> => {
    const finds = search.textIds?.length;
    const rangeRecords = () => rollups.count({ ...search, where: [], text: undefined, textIds: null });
    const first =
      finds !== undefined && text.needsIds && !isSelective(search) && (await textFirst(finds, rangeRecords));
    const sort = search.sort;
    const byOrder =
      dialect === 'sqlite' &&
      !first &&
      !isSelective(search) &&
      sort !== undefined &&
      'column' in sort &&
      ORDER_INDEXED.has(sort.column) &&
      orderFromIndex(end, await rangeRecords(), await scopeRecords(search.scope));
    return searchWhere(search, dialect, text, { textFirst: first, byOrder });
  };

  /** The scope's records in its copied days (their counts: no row read). */
  const scopeRecords = async (scope: string): Promise<number> => {
    const row = await db
      .selectFrom('history_days')
      .select((eb) => eb.fn.sum<number>('records').as('n'))
      .where('scope', '=', scope)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  };

  const way = (search: ResolvedSearch) => wayOf(search, search.textIds ? search.textIds.length : null, fewFinds);

  const pageOf = async (search: ResolvedSearch, offset: number, limit: number): Promise<string[]> => {
    if (search.ranges.length === 0 || limit <= 0) return [];
    if (way(search) === 'packs') {
      const packed = await packs.slice(search, offset, limit);
      if (packed) return bodiesOf(db, packed.ids);
    }
    const sought = await rollups.seek(search, offset);
    if (!sought) return [];
    const { ids } = await sql.pageIds(
      sought.search,
      sought.offset,
      limit,
      await sqlWhere(sought.search, sought.offset + limit),
      false,
    );
    return bodiesOf(db, ids);
  };

  return {
    async record(scope, trxId) {
      const scopeNo = await scopes.numberOf(scope);
      return scopeNo === null ? null : recordOf(db, scopeNo, trxId);
    },
    async records(scope, column, values) {
      const scopeNo = await scopes.numberOf(scope);
      if (scopeNo === null) return [];
      const ids: number[] = [];
      for (let i = 0; i < values.length; i += RECORDS_PER_STATEMENT) {
        const rows = await db
          .selectFrom('history_records')
          .select('id')
          .where('scope_no', '=', scopeNoSql(scopeNo))
          .where(column, 'in', values.slice(i, i + RECORDS_PER_STATEMENT))
          .execute();
        for (const r of rows) ids.push(Number(r.id));
      }
      return bodiesOf(db, ids);
    },
    async count(search) {
      if (search.ranges.length === 0) return 0;
      const resolved = await resolve(search);
      if (!resolved) return 0;
      const chosen = way(resolved);
      if (chosen === 'rollups') return rollups.count(resolved);
      if (chosen === 'packs') {
        const packed = await packs.slice(resolved, 0, 0);
        if (packed) return packed.total;
      }
      return sql.count(resolved, await sqlWhere(resolved));
    },
    async page(search, offset, limit) {
      const resolved = await resolve(search);
      return resolved ? pageOf(resolved, offset, limit) : [];
    },
    async slice(search, offset, limit) {
      if (search.ranges.length === 0) return { total: 0, bodies: [] };
      const resolved = await resolve(search);
      if (!resolved) return { total: 0, bodies: [] };
      const chosen = way(resolved);
      // What the rollups count is counted there (a month in a few ms), and its deep pages sought.
      if (chosen === 'rollups') {
        const total = await rollups.count(resolved);
        return { total, bodies: offset < total && limit > 0 ? await pageOf(resolved, offset, limit) : [] };
      }
      if (chosen === 'packs') {
        const packed = await packs.slice(resolved, offset, limit);
        if (packed) return { total: packed.total, bodies: await bodiesOf(db, packed.ids) };
      }
      // Anything else (free text found a few times, a number, another order, days not complete)
      // reads its matching rows anyway: the count comes with the page, from the same read.
      const where = await sqlWhere(resolved, offset + Math.max(limit, 1));
      const { ids, total } = await sql.pageIds(resolved, offset, Math.max(limit, 1), where, true);
      const counted = total ?? (offset === 0 ? 0 : await sql.count(resolved, where));
      return { total: counted, bodies: limit > 0 ? await bodiesOf(db, ids.slice(0, limit)) : [] };
    },
    async countHeld(scope, from, to) {
      const scopeNo = await scopes.numberOf(scope);
      if (scopeNo === null) return 0;
      const row = await db
        .selectFrom('history_records')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('scope_no', '=', scopeNoSql(scopeNo))
        .where('received_ms', '>=', from)
        .where('received_ms', '<=', to)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async size(scope) {
      const scopeNo = await scopes.numberOf(scope);
      if (scopeNo === null) return { records: 0 };
      const row = await db
        .selectFrom('history_records')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('scope_no', '=', scopeNoSql(scopeNo))
        .executeTakeFirstOrThrow();
      return { records: Number(row.n) };
    },
    reads: {
      resolve,
      where: plainWhere,
      async textIds(search) {
        const scopeNo = await scopes.numberOf(search.scope);
        return scopeNo === null ? new Float64Array(0) : text.matchIds(scopeNo, search.ranges, search.text);
      },
    },
  };
}
