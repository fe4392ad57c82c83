import 'server-only';
/**
 * Searches of the local history's data (the records the history writer stores: ./writes.ts):
 * counts, pages in any order, a record by trx_id. One search takes the cheapest way its shape
 * allows: the rollups count what they are kept by (and find deep pages: seek), the day packs
 * answer free text and bounds over complete days (packSlice), SQL the rest, through the one
 * WHERE builder (searchWhere) that Insights uses too. The same statements serve SQLite and
 * PostgreSQL; the free text and the sort by a field without a column of its own are the two places
 * the dialects differ, kept here.
 *
 * Every search names its scope: one account's copy is never read for another.
 */
import { sql, type Expression, type ExpressionBuilder, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { prefixSuccessor, searchFolded } from '../../cdr/typed-text';
import { DAY_MS, HOUR_MS } from '../../time/units';
import { joinRanges, type TimeRange } from '../../query/ranges';
import { packPlan, utcDaysOf } from './pack-plan';
import type { Database, HistoryRecordsTable, SqlDialect } from '../../db/schema';
import { IdSet, packsServe, scanPack, type DayPack } from './day-pack';
import type { DayPackStore } from './day-pack-store';
import { rollupPlan, rollupsServe, type RollupDimension } from './rollups';

/** The columns a search can filter or sort on. */
export type RecordColumn = Exclude<keyof HistoryRecordsTable, 'id' | 'scope' | 'body' | 'search_text'>;

export type Condition =
  | { column: RecordColumn; op: '=' | '>=' | '<='; value: string | number }
  /** Text that starts with `value` (a range on the column, so an index serves it). */
  | { column: RecordColumn; op: 'prefix'; value: string };

/** How to order: a column, or a field of the record that has none (read from the record's JSON). */
export type SortKey = { column: RecordColumn } | { field: string; numeric: boolean };

export interface LocalSearch {
  scope: string;
  /** Instants (ms), both ends inclusive; the search covers their union. */
  ranges: readonly { from: number; to: number }[];
  where: readonly Condition[];
  /** Free text: a case-insensitive substring of the record's searchable fields. */
  text?: string;
  /** Defaults to received time; ties always go by received time, then trx_id, in the same direction. */
  sort?: SortKey;
  order: 'asc' | 'desc';
}

export interface HistorySearch {
  /** The record of a trx_id in the scope's copy (JSON), or null. */
  record(scope: string, trxId: string): Promise<string | null>;
  /**
   * The records (JSON) the scope's copy holds whose `column` is one of `values` (trx_ids in lower
   * case, numbers, references), in no order: a list of thousands read with a statement per few
   * hundred, each through the column's index, not one statement each (a reconciliation's list).
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

/** From this offset on, a page in received-time order is found through the hourly rollups (seek). */
const SEEK_FROM_OFFSET = 2_000;

/** Values looked up per statement by `records`: far below either dialect's parameter limit. */
const RECORDS_PER_STATEMENT = 500;

/** Finds of the text index looked up one by one whatever the range (a few ms: see textFirst). */
const FEW_FINDS = 2_000;

/** Columns whose conditions pick a few records each (see searchWhere). */
const SELECTIVE_COLUMNS = new Set<RecordColumn>(['to_address', 'to_rev', 'ref', 'trx_id']);

/** `%` and `_` are wildcards in LIKE: a literal search escapes them (and the escape character). */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The string just after every string that starts with `prefix` (for a range that finds them). */
function prefixUpperBound(prefix: string): string {
  const last = prefix.charCodeAt(prefix.length - 1);
  return prefix.slice(0, -1) + String.fromCharCode(last + 1);
}

/**
 * The WHERE of a search of the local history: the scope, the ranges, every condition and the free
 * text. The one builder of it: the store's count and page use it, and so do Insights' aggregates
 * (lib/insights/insights-store.ts), so a filter means the same everywhere.
 */
export function searchWhere(
  search: LocalSearch,
  dialect: SqlDialect,
  plan: { textFirst?: boolean; textScan?: boolean } = {},
) {
  // Which index SQLite should read (`+column` keeps it from using that column's index):
  //  - a condition that picks a handful of records (a number, its last digits, a reference): its
  //    own index, the time range only checked (else the planner walks a month of received time);
  //  - `textFirst` (decided by textFirst in createHistorySearch): the records the trigram
  //    index finds, each looked up by id, instead of every record of the range looked up in the
  //    index's answer;
  //  - `textScan`: the text of each record of the range read (LIKE on the same lower-cased text),
  //    for a range of a few records (the edge of a search the day packs answer), where building
  //    the list of the index's finds would cost more than the whole read.
  // PostgreSQL plans from its statistics; the plus is left out there.
  const selective = isSelective(search);
  const textFirst = !selective && plan.textFirst === true;
  const column = (name: 'scope' | 'received_ms', plus: boolean) =>
    sql.raw(`${plus && dialect === 'sqlite' ? '+' : ''}history_records.${name}`);
  const scope = column('scope', textFirst);
  const received = column('received_ms', selective || textFirst);
  return (eb: ExpressionBuilder<Database, 'history_records'>) => {
    const parts: Expression<SqlBool>[] = [sql<SqlBool>`${scope} = ${search.scope}`];
    parts.push(eb.or(joinRanges(search.ranges).map((r) => sql<SqlBool>`${received} between ${r.from} and ${r.to}`)));
    for (const c of search.where) {
      if (c.op === 'prefix')
        parts.push(eb.and([eb(c.column, '>=', c.value), eb(c.column, '<', prefixUpperBound(c.value))]));
      else parts.push(eb(c.column, c.op, c.value));
    }
    if (search.text) parts.push(textCondition(search.text, dialect, plan.textScan === true));
    return eb.and(parts);
  };
}

const isSelective = (search: Pick<LocalSearch, 'where'>) => search.where.some((c) => SELECTIVE_COLUMNS.has(c.column));

const isWide = (ch: string) => ch.codePointAt(0)! > 0x7f;

/** Whether SQLite's trigram index answers this text: three characters or more, or two wide ones (ftsMatch). */
function textUsesIndex(text: string): boolean {
  const chars = [...text];
  return chars.length >= 3 || (chars.length === 2 && chars.every(isWide));
}

/**
 * The forms a free text is looked for in: as typed (in lower case), and folded as records are
 * stored (lib/cdr/typed-text.ts searchFolded: ｻｸﾗ as サクラ, ＯＲＤ as ord, ㈱ as (株)). A record
 * copied before stored text was folded (November 2026) holds it unfolded and is found by the form
 * it holds: no migration rewrites it (row by row, the text index took minutes on a large copy).
 * One form when folding changes nothing.
 */
export function textNeedles(text: string): string[] {
  return [...new Set([text.toLowerCase(), searchFolded(text)])];
}

/** Whether SQLite's trigram index answers every form of the text. */
const indexAnswers = (needles: readonly string[]) => needles.every(textUsesIndex);

/** The ids the trigram index (and the records it has not caught up with) finds any of the forms in. */
function ftsIdsOfAny(needles: readonly string[]) {
  return needles.length === 1
    ? ftsIds(needles[0]!)
    : sql.join(
        needles.map((n) => sql`select id from (${ftsIds(n)})`),
        sql` union `,
      );
}

/** FTS5's query syntax for a string: one phrase. */
const phrase = (text: string) => `"${text.replace(/"/g, '""')}"`;

/**
 * The FTS5 query of a text the trigram index answers. Three characters or more: the phrase itself.
 * Two wide characters (Japanese is searched by two as often as by three: 配達, 予約, 注文): every
 * trigram of the index that starts with them, OR-ed, looked up in its vocabulary (a range of its
 * sorted terms, a few dozen at most); none is a phrase that finds nothing.
 */
function ftsMatch(text: string): RawBuilder<string> {
  const needle = text.toLowerCase();
  if ([...needle].length !== 2) return sql<string>`${phrase(needle)}`;
  const upper = prefixSuccessor(needle);
  const below = upper === null ? sql`` : sql` and term < ${upper}`;
  return sql<string>`(select coalesce(group_concat('"' || replace(term, '"', '""') || '"', ' OR '), '""') from history_fts_vocab where term >= ${needle}${below})`;
}

/**
 * The ids of the records SQLite's trigram index finds the text in, of every scope (the caller keeps
 * its own): those it holds, and those stored since it last caught up (it is written when the
 * history writer is idle: migration 0017-text-index-when-idle), read directly — a few at most, none
 * once the writer is quiet. Found by their ids alone: a condition on the scope would have SQLite
 * read the scope's every record through its index instead.
 */
function ftsIds(needle: string) {
  return sql`select rowid as id from history_fts where history_fts match ${ftsMatch(needle)}
    union all
    select t.id from history_records t where t.id > (select upto from history_text_indexed) and t.search_text like ${`%${likeLiteral(needle)}%`} escape '\\'`;
}

/** Free text, in any of its forms (textNeedles): FTS5 trigram (SQLite) or pg_trgm-indexed ILIKE (PostgreSQL); LIKE for other short text. */
function textCondition(text: string, dialect: SqlDialect, scan: boolean): Expression<SqlBool> {
  const needles = textNeedles(text);
  const anyOf = (one: (needle: string) => RawBuilder<SqlBool>) =>
    needles.length === 1 ? one(needles[0]!) : sql<SqlBool>`(${sql.join(needles.map(one), sql` or `)})`;
  if (dialect === 'postgres') return anyOf((n) => sql<SqlBool>`search_text ilike ${`%${likeLiteral(n)}%`} escape '\\'`);
  if (scan || !indexAnswers(needles))
    return anyOf((n) => sql<SqlBool>`search_text like ${`%${likeLiteral(n)}%`} escape '\\'`);
  return sql<SqlBool>`history_records.id in (${ftsIdsOfAny(needles)})`;
}

/**
 * The ids of the records whose text holds the search's text: SQLite's trigram index answers
 * (every scope: the caller keeps its own records; see ftsIds), other text is read from the
 * search's range.
 * As one comma-separated list: hundreds of thousands of ids as rows cost three times as much.
 */
export async function textMatchIds(
  db: Kysely<Database>,
  dialect: SqlDialect,
  search: Pick<LocalSearch, 'scope' | 'ranges'> & { text: string },
): Promise<number[]> {
  const list =
    dialect === 'postgres' ? sql<string | null>`string_agg(id::text, ',')` : sql<string | null>`group_concat(id)`;
  const needles = textNeedles(search.text);
  const found =
    dialect === 'sqlite' && indexAnswers(needles)
      ? await sql<{ ids: string | null }>`select group_concat(id) as ids from (${ftsIdsOfAny(needles)})`.execute(db)
      : await db
          .selectFrom('history_records')
          .select(list.as('ids'))
          .where(searchWhere({ ...search, where: [], order: 'asc' }, dialect))
          .execute()
          .then((rows) => ({ rows }));
  const ids = found.rows[0]?.ids;
  return ids ? (JSON.parse(`[${ids}]`) as number[]) : [];
}

/**
 * `fewFinds`: up to how many finds a free text is looked up record by record rather than through
 * the day packs (a test sets 0 to have the packs answer every text).
 */
export function createHistorySearch(
  db: Kysely<Database>,
  dialect: SqlDialect,
  dayPacks: DayPackStore,
  options: { fewFinds?: number } = {},
): HistorySearch {
  const fewFinds = options.fewFinds ?? FEW_FINDS;

  /**
   * A count the rollups can answer: whole UTC days from the daily rollups, whole hours from the
   * hourly ones, the rest from the records — a month sums a few thousand rows, not a million.
   */
  const countFromRollups = async (search: LocalSearch): Promise<number> => {
    const plan = rollupPlan(search.ranges);
    const conditions = <T extends 'history_rollups_daily' | 'history_rollups_hourly'>(
      eb: ExpressionBuilder<Database, T>,
    ) => rollupConditions(eb, search);
    let total = plan.edges.length > 0 ? await countRecords({ ...search, ranges: plan.edges }) : 0;
    if (plan.days.length > 0) {
      const row = await db
        .selectFrom('history_rollups_daily')
        .select((eb) => eb.fn.sum<number>('records').as('n'))
        .where((eb) =>
          eb.and([
            eb('scope', '=', search.scope),
            eb('zone', '=', 'UTC'),
            eb('day', 'in', plan.days),
            ...conditions(eb),
          ]),
        )
        .executeTakeFirstOrThrow();
      total += Number(row.n ?? 0);
    }
    if (plan.hours.length > 0) {
      const row = await db
        .selectFrom('history_rollups_hourly')
        .select((eb) => eb.fn.sum<number>('records').as('n'))
        .where((eb) =>
          eb.and([
            eb('scope', '=', search.scope),
            eb.or(plan.hours.map((h) => eb.between('hour_ms', h.from, h.to))),
            ...conditions(eb),
          ]),
        )
        .executeTakeFirstOrThrow();
      total += Number(row.n ?? 0);
    }
    return total;
  };

  /**
   * Whether a free-text search reads the trigram index's finds first (each record looked up by id)
   * or the range first (each record looked up in the finds): whichever reads fewer rows. The finds
   * are counted over every scope (the index has no scope), the range from the rollups.
   */
  const textFirst = async (search: LocalSearch): Promise<boolean> => {
    if (dialect !== 'sqlite' || search.text === undefined || isSelective(search)) return false;
    const needles = textNeedles(search.text);
    if (!indexAnswers(needles)) return false;
    let finds = 0;
    for (const needle of needles) {
      const found = await sql<{
        n: number;
      }>`select count(*) as n from history_fts where history_fts match ${ftsMatch(needle)}`.execute(db);
      finds += Number(found.rows[0]?.n ?? 0);
    }
    // So few finds are looked up sooner than the range is counted (a month's daily rollups).
    if (finds <= FEW_FINDS) return true;
    // A lookup by id costs a few steps of a range scan.
    return finds * 4 < (await countFromRollups({ ...search, where: [], text: undefined }));
  };

  const whereOf = async (search: LocalSearch) => searchWhere(search, dialect, { textFirst: await textFirst(search) });

  /** Conditions of a search on a rollup table's columns (rollupsServe: all of them are). */
  const rollupConditions = <T extends 'history_rollups_daily' | 'history_rollups_hourly'>(
    eb: ExpressionBuilder<Database, T>,
    search: LocalSearch,
  ) => search.where.map((c) => eb(eb.ref(c.column as RollupDimension) as never, '=', c.value as never));

  /**
   * A deep page in received-time order (page 1000 of a filtered month) would skip tens of thousands
   * of records one by one. The rollups count them instead: the daily counts find the day the page
   * starts in, that day's hourly counts the hour; the page's range is narrowed to start there (and
   * run on in the search's order), the offset to what is left; null when the offset is past the
   * last record. Only for filters the rollups count, one range, and offsets worth the lookups
   * (without a filter the received-time index skips fast).
   */
  const seek = async (search: LocalSearch, offset: number): Promise<{ search: LocalSearch; offset: number } | null> => {
    if (
      offset < SEEK_FROM_OFFSET ||
      search.sort ||
      search.ranges.length !== 1 ||
      search.where.length === 0 ||
      !rollupsServe(search)
    )
      return { search, offset };
    const range = search.ranges[0]!;
    const located = await locate(search, offset, await segmentsOf(search, range, DAY_MS));
    if (!located) return null; // past the last record
    let { segment, skipped } = located;
    if (segment.n !== null) {
      // A whole day: its hours next.
      const within = await locate(search, offset - skipped, await segmentsOf(search, segment, HOUR_MS));
      if (within) [segment, skipped] = [within.segment, skipped + within.skipped];
    }
    const narrowed =
      search.order === 'desc' ? { from: range.from, to: segment.to } : { from: segment.from, to: range.to };
    return { search: { ...search, ranges: [narrowed] }, offset: offset - skipped };
  };

  type Segment = { from: number; to: number; n: number | null };

  /** `range` cut into whole units (days or hours, counted from their rollups) and ragged ends (n: null, counted from the records), in the search's order. */
  const segmentsOf = async (
    search: LocalSearch,
    range: { from: number; to: number },
    unit: number,
  ): Promise<Segment[]> => {
    const first = Math.ceil(range.from / unit) * unit;
    const last = Math.floor((range.to + 1) / unit) * unit - unit;
    if (first > last) return [{ ...range, n: null }];
    const counts =
      unit === DAY_MS
        ? await db
            .selectFrom('history_rollups_daily')
            .select([
              sql<number>`cast(day as bigint) * ${DAY_MS}`.as('at'),
              (eb) => eb.fn.sum<number>('records').as('n'),
            ])
            .where((eb) =>
              eb.and([
                eb('scope', '=', search.scope),
                eb('zone', '=', 'UTC'),
                eb.between('day', first / DAY_MS, last / DAY_MS),
                ...rollupConditions(eb, search),
              ]),
            )
            .groupBy('day')
            .execute()
        : await db
            .selectFrom('history_rollups_hourly')
            .select([sql<number>`hour_ms`.as('at'), (eb) => eb.fn.sum<number>('records').as('n')])
            .where((eb) =>
              eb.and([
                eb('scope', '=', search.scope),
                eb.between('hour_ms', first, last),
                ...rollupConditions(eb, search),
              ]),
            )
            .groupBy('hour_ms')
            .execute();
    const byStart = new Map(counts.map((c) => [Number(c.at), Number(c.n)]));
    const segments: Segment[] = [];
    if (range.from < first) segments.push({ from: range.from, to: first - 1, n: null });
    for (let t = first; t <= last; t += unit) segments.push({ from: t, to: t + unit - 1, n: byStart.get(t) ?? 0 });
    if (last + unit <= range.to) segments.push({ from: last + unit, to: range.to, n: null });
    return search.order === 'desc' ? segments.reverse() : segments;
  };

  /** The segment holding the record at `offset`, and how many records come before it. */
  const locate = async (
    search: LocalSearch,
    offset: number,
    segments: Segment[],
  ): Promise<{ segment: Segment; skipped: number } | null> => {
    let skipped = 0;
    for (const segment of segments) {
      const n = segment.n ?? (await countRecords({ ...search, ranges: [segment] }));
      if (skipped + n > offset) return { segment, skipped };
      skipped += n;
    }
    return null;
  };

  const countRecords = async (search: LocalSearch): Promise<number> => {
    const row = await db
      .selectFrom('history_records')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(await whereOf(search))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  /** A field without a column of its own is read from the record's body (slow: every row's body is read). */
  const sortExpression = (key: SortKey) => {
    if ('column' in key) return sql.ref(key.column);
    const value =
      dialect === 'postgres'
        ? key.numeric
          ? sql`nullif(body::json->>${key.field}, '')::numeric`
          : sql`body::json->>${key.field}`
        : key.numeric
          ? sql`cast(nullif(json_extract(body, ${`$.${key.field}`}), '') as real)`
          : sql`json_extract(body, ${`$.${key.field}`})`;
    return sql`(select ${value} from history_bodies where history_bodies.id = history_records.id)`;
  };

  /**
   * The ids at [offset, offset + limit) of the search's order, from the narrow rows (an index,
   * mostly); with `withTotal`, how many rows match too (null when the page is empty: past the end).
   */
  const pageIds = async (
    search: LocalSearch,
    offset: number,
    limit: number,
    where: ReturnType<typeof searchWhere>,
    withTotal: boolean,
  ): Promise<{ ids: (number | string)[]; total: number | null }> => {
    const dir = search.order === 'desc' ? sql`desc` : sql`asc`;
    // Absent values sort as the smallest in both dialects (SQLite and PostgreSQL differ by default).
    const nulls = search.order === 'desc' ? sql`nulls last` : sql`nulls first`;
    let q = db
      .selectFrom('history_records')
      .select(['id', (withTotal ? sql<number>`count(*) over ()` : sql<number>`0`).as('total')])
      .where(where);
    if (search.sort && !('column' in search.sort && search.sort.column === 'received_ms'))
      q = q.orderBy(sql`${sortExpression(search.sort)} ${dir} ${nulls}`);
    const rows = await q
      .orderBy(sql`received_ms ${dir}`)
      .orderBy(sql`trx_id ${dir}`)
      .limit(limit)
      .offset(offset)
      .execute();
    return { ids: rows.map((r) => r.id), total: withTotal && rows.length > 0 ? Number(rows[0]!.total) : null };
  };

  /**
   * A search the rollups cannot count (free text, a price or latency bound), answered from the
   * day packs of its complete days: its total, and the ids at [offset, offset + limit) in
   * received-time order. Free text is looked up once for its ids; the packs give the times, the
   * order and the other conditions without reading a row. What lies before or after the packed
   * days (the next day's first instant, most often) is read by SQL, and the pieces are put
   * together in order. Null when the packs cannot answer (no complete day, a gap between complete
   * days, a phone number or reference, another order, a text found a few times): SQL answers all
   * of it.
   */
  const packSlice = async (
    search: LocalSearch,
    offset: number,
    limit: number,
  ): Promise<{ total: number; ids: number[] } | null> => {
    const receivedOrder = !search.sort || ('column' in search.sort && search.sort.column === 'received_ms');
    if (!receivedOrder || rollupsServe(search) || !packsServe(search.where)) return null;
    const packs = await dayPacks.packs(search.scope, utcDaysOf(search.ranges));
    if (packs.size === 0) return null;
    const plan = packPlan(search.ranges, new Set(packs.keys()));
    if (plan.between.length > 0) return null;
    const ids =
      search.text === undefined
        ? undefined
        : new IdSet(await textMatchIds(db, dialect, { ...search, text: search.text }));
    // A text found a few times (part of a reference) is looked up record by record sooner than a
    // month of packs is scanned (a few ms against tens).
    if (ids && ids.size <= fewFinds) return null;

    type Piece = { pack: DayPack } | { ranges: TimeRange[] };
    const pieces: Piece[] = [];
    if (plan.before.length > 0) pieces.push({ ranges: plan.before });
    for (const day of [...packs.keys()].sort()) pieces.push({ pack: packs.get(day)! });
    if (plan.after.length > 0) pieces.push({ ranges: plan.after });
    if (search.order === 'desc') pieces.reverse();

    let total = 0;
    const page: number[] = [];
    for (const piece of pieces) {
      const from = Math.max(0, offset - total);
      const wanted = offset + limit - total - from;
      if ('pack' in piece) {
        const kept = scanPack(
          piece.pack,
          { ranges: plan.packed, where: search.where, ...(ids ? { ids } : {}) },
          search.order,
        );
        for (let j = from; j < kept.length && j < from + wanted; j++) page.push(piece.pack.ids[kept[j]!]!);
        total += kept.length;
        continue;
      }
      const sub = { ...search, ranges: piece.ranges };
      const where = searchWhere(sub, dialect, { textScan: true });
      const row = await db
        .selectFrom('history_records')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where(where)
        .executeTakeFirstOrThrow();
      const n = Number(row.n);
      if (wanted > 0 && from < n) page.push(...(await pageIds(sub, from, wanted, where, false)).ids.map(Number));
      total += n;
    }
    return { total, ids: page };
  };

  const pageOf = async (search: LocalSearch, offset: number, limit: number): Promise<string[]> => {
    if (search.ranges.length === 0 || limit <= 0) return [];
    const packed = await packSlice(search, offset, limit);
    if (packed) return bodiesOf(packed.ids);
    const sought = await seek(search, offset);
    if (!sought) return [];
    const { ids } = await pageIds(sought.search, sought.offset, limit, await whereOf(sought.search), false);
    return bodiesOf(ids);
  };

  /** The records (JSON) of the ids, in their order. */
  const bodiesOf = async (ids: readonly (number | string)[]): Promise<string[]> => {
    if (ids.length === 0) return [];
    const bodies = await db
      .selectFrom('history_bodies')
      .select(['id', 'body'])
      .where('id', 'in', ids as number[])
      .execute();
    // PostgreSQL answers its bigint ids as strings: keyed by their text either way.
    const byId = new Map(bodies.map((b) => [String(b.id), b.body]));
    return ids.map((id) => byId.get(String(id))!);
  };

  return {
    async record(scope, trxId) {
      const row = await db
        .selectFrom('history_records')
        .innerJoin('history_bodies', 'history_bodies.id', 'history_records.id')
        .select('history_bodies.body')
        .where('history_records.scope', '=', scope)
        .where('history_records.trx_id', '=', trxId.toLowerCase())
        .executeTakeFirst();
      return row?.body ?? null;
    },
    async records(scope, column, values) {
      const bodies: string[] = [];
      for (let i = 0; i < values.length; i += RECORDS_PER_STATEMENT) {
        const rows = await db
          .selectFrom('history_records')
          .innerJoin('history_bodies', 'history_bodies.id', 'history_records.id')
          .select('history_bodies.body')
          .where('history_records.scope', '=', scope)
          .where(`history_records.${column}`, 'in', values.slice(i, i + RECORDS_PER_STATEMENT))
          .execute();
        for (const r of rows) bodies.push(r.body);
      }
      return bodies;
    },
    async count(search) {
      if (search.ranges.length === 0) return 0;
      if (rollupsServe(search)) return countFromRollups(search);
      return (await packSlice(search, 0, 0))?.total ?? countRecords(search);
    },
    page: pageOf,
    async slice(search, offset, limit) {
      if (search.ranges.length === 0) return { total: 0, bodies: [] };
      // What the rollups count is counted there (a month in a few ms), and its deep pages sought.
      if (rollupsServe(search)) {
        const total = await countFromRollups(search);
        return { total, bodies: offset < total && limit > 0 ? await pageOf(search, offset, limit) : [] };
      }
      const packed = await packSlice(search, offset, limit);
      if (packed) return { total: packed.total, bodies: await bodiesOf(packed.ids) };
      // Anything else (free text, a number, a price or latency bound over days not complete)
      // reads its matching rows anyway: the count comes with the page, from the same read.
      const where = await whereOf(search);
      const { ids, total } = await pageIds(search, offset, Math.max(limit, 1), where, true);
      const counted = total ?? (offset === 0 ? 0 : await countRecords(search));
      return { total: counted, bodies: limit > 0 ? await bodiesOf(ids.slice(0, limit)) : [] };
    },
    async countHeld(scope, from, to) {
      const row = await db
        .selectFrom('history_records')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('scope', '=', scope)
        .where('received_ms', '>=', from)
        .where('received_ms', '<=', to)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async size(scope) {
      const row = await db
        .selectFrom('history_records')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('scope', '=', scope)
        .executeTakeFirstOrThrow();
      return { records: Number(row.n) };
    },
  };
}
