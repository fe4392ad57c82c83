import 'server-only';
/**
 * The SQL executor of the local history's searches: counts and pages of the records' rows, in any
 * order, through the one WHERE builder (searchWhere) that Insights uses too, so a filter means the
 * same everywhere. The planner (./search-plan.ts) sends here what the rollups and the day packs do
 * not answer: a phone number, its last digits, a reference, another order, the days without a
 * pack, a text found a few times.
 */
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import { prefixSuccessor } from '../../cdr/typed-text';
import { joinRanges } from '../../query/ranges';
import type { Database, SqlDialect } from '../../db/schema';
import { fieldOf } from './bodies';
import { scopeNoSql } from './scopes';
import type { Condition, ResolvedSearch, RecordColumn } from './search-types';
import { likeLiteral, textNeedles, type TextIndex } from './text-search';

/** Orders read from an index of their own (searchWhere's `byOrder`). */
export const ORDER_INDEXED = new Set<RecordColumn>(['price_units', 'latency_ms']);

/** Columns whose conditions pick a few records each (see searchWhere). */
const SELECTIVE_COLUMNS = new Set<RecordColumn>(['to_address', 'to_rev', 'ref', 'trx_id']);

export const isSelective = (search: Pick<ResolvedSearch, 'where'>) =>
  search.where.some((c) => c.op !== 'contains' && SELECTIVE_COLUMNS.has(c.column));

export type SearchWhere = (eb: ExpressionBuilder<Database, 'history_records'>) => Expression<SqlBool>;

/**
 * The WHERE of a search of the local history: the scope, the ranges, every condition and the free
 * text. `textFirst` (SQLite; decided by the planner): the records the text index found are read
 * each by id, instead of every record of the range being tested against them.
 */
export function searchWhere(
  search: ResolvedSearch,
  dialect: SqlDialect,
  text: TextIndex,
  plan: { textFirst?: boolean; byOrder?: boolean } = {},
): SearchWhere {
  // Which index SQLite should read (`+column` keeps it from using that column's index):
  //  - a condition that picks a handful of records (a number, its last digits, a reference): its
  //    own index, the time range only checked (else the planner walks a month of received time);
  //  - `textFirst`: the found ids, each looked up by id;
  //  - `byOrder` (an order by a column with an index of its own: price, latency): that index, read
  //    in the order asked with the range only checked, rather than the range sorted (a year of
  //    records sorted for a page of 25).
  // PostgreSQL plans from its statistics; the plus is left out there.
  const selective = isSelective(search);
  const textFirst = !selective && plan.textFirst === true && search.text !== undefined;
  const column = (name: 'scope_no' | 'received_ms', plus: boolean) =>
    sql.raw(`${plus && dialect === 'sqlite' ? '+' : ''}history_records.${name}`);
  const scope = column('scope_no', textFirst);
  const received = column('received_ms', selective || textFirst || plan.byOrder === true);
  return (eb) => {
    const parts: Expression<SqlBool>[] = [sql<SqlBool>`${scope} = ${scopeNoSql(search.scopeNo)}`];
    parts.push(eb.or(joinRanges(search.ranges).map((r) => sql<SqlBool>`${received} between ${r.from} and ${r.to}`)));
    for (const c of search.where) {
      if (c.op === 'prefix') {
        const upper = prefixSuccessor(c.value);
        parts.push(
          upper === null
            ? eb(c.column, '>=', c.value)
            : eb.and([eb(c.column, '>=', c.value), eb(c.column, '<', upper)]),
        );
      } else if (c.op === 'contains') parts.push(containsCondition(c, dialect));
      else parts.push(eb(c.column, c.op, c.value));
    }
    if (search.text !== undefined) parts.push(text.condition(search.text, search.textIds));
    return eb.and(parts);
  };
}

/** `contains`: the text in any of the columns, whatever its case (and as folded, as free text is looked for). */
function containsCondition(c: Extract<Condition, { op: 'contains' }>, dialect: SqlDialect): Expression<SqlBool> {
  const like = dialect === 'postgres' ? sql`ilike` : sql`like`;
  const tests = [c.column, ...c.or].flatMap((column) =>
    textNeedles(c.value).map(
      (n) => sql<SqlBool>`lower(${sql.ref(`history_records.${column}`)}) ${like} ${`%${likeLiteral(n)}%`} escape '\\'`,
    ),
  );
  return sql<SqlBool>`(${sql.join(tests, sql` or `)})`;
}

export interface SqlSearch {
  count(search: ResolvedSearch, where: SearchWhere): Promise<number>;
  /**
   * The ids at [offset, offset + limit) of the search's order; with `withTotal`, how many rows
   * match too (null when the page is empty: past the end).
   */
  pageIds(
    search: ResolvedSearch,
    offset: number,
    limit: number,
    where: SearchWhere,
    withTotal: boolean,
  ): Promise<{ ids: (number | string)[]; total: number | null }>;
}

export function createSqlSearch(db: Kysely<Database>): SqlSearch {
  const count = async (_search: ResolvedSearch, where: SearchWhere): Promise<number> => {
    const row = await db
      .selectFrom('history_records')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(where)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  /**
   * An order by a field the row has no column for: read from each matching record (every one of
   * them inflated from its block: slow over many records, as it always was).
   */
  const pageIdsByField = async (
    search: ResolvedSearch,
    field: { field: string; numeric: boolean },
    offset: number,
    limit: number,
    where: SearchWhere,
  ) => {
    const rows = await db.selectFrom('history_records').select(['id', 'received_ms', 'trx_id']).where(where).execute();
    const values = await fieldOf(
      db,
      rows.map((r) => r.id),
      field.field,
    );
    const keyOf = (id: number | string): number | string | null => {
      const v = values.get(String(id));
      if (v === undefined || v === null || v === '') return null;
      if (!field.numeric) return String(v);
      const n = Number(v);
      return Number.isFinite(n) ? n : null;
    };
    const dir = search.order === 'desc' ? -1 : 1;
    const keyed = rows.map((r) => ({ r, key: keyOf(r.id) }));
    keyed.sort((a, b) => {
      // Absent values as the smallest, as SQL orders them here.
      if (a.key !== b.key) {
        if (a.key === null) return -dir;
        if (b.key === null) return dir;
        return (a.key < b.key ? -1 : 1) * dir;
      }
      const t = Number(a.r.received_ms) - Number(b.r.received_ms);
      if (t !== 0) return t * dir;
      return (a.r.trx_id < b.r.trx_id ? -1 : a.r.trx_id > b.r.trx_id ? 1 : 0) * dir;
    });
    return {
      ids: keyed.slice(offset, offset + limit).map((k) => k.r.id),
      total: keyed.length > offset ? keyed.length : null,
    };
  };

  return {
    count,
    async pageIds(search, offset, limit, where, withTotal) {
      const sort = search.sort;
      if (sort && 'field' in sort) return pageIdsByField(search, sort, offset, limit, where);
      const dir = search.order === 'desc' ? sql`desc` : sql`asc`;
      // Absent values sort as the smallest in both dialects (SQLite and PostgreSQL differ by default).
      const nulls = search.order === 'desc' ? sql`nulls last` : sql`nulls first`;
      let q = db
        .selectFrom('history_records')
        .select(['id', (withTotal ? sql<number>`count(*) over ()` : sql<number>`0`).as('total')])
        .where(where);
      if (sort && sort.column !== 'received_ms') q = q.orderBy(sql`${sql.ref(sort.column)} ${dir} ${nulls}`);
      const rows = await q
        .orderBy(sql`received_ms ${dir}`)
        .orderBy(sql`trx_id ${dir}`)
        .limit(limit)
        .offset(offset)
        .execute();
      return { ids: rows.map((r) => r.id), total: withTotal && rows.length > 0 ? Number(rows[0]!.total) : null };
    },
  };
}
