import 'server-only';
/**
 * The local history (migration 0006-history and after): per scope its settings, its days, the
 * pages of days being copied, its complete results — the store's own tables, written here — and
 * its data — records, text index, rollups, day packs — written by the history writer
 * (./history-writer.ts) and searched here. The same statements serve SQLite and PostgreSQL; the
 * free text and the sort by a field without a column of its own are the two places the dialects
 * differ, kept here.
 *
 * A day is copied in two steps. Each upstream page is staged as it comes (stageDayPage: one row,
 * with the day's progress, in one transaction: a restart resumes at the first page not staged and
 * never pays for one twice), so the copy's next call goes at once. Staged pages go into the data
 * in the background (buildDay), and once every page is read and in, the day is complete.
 *
 * Every read and write names the scope: one account's copy is never read for another.
 */
import { sql, type Expression, type ExpressionBuilder, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { HistoryRecordRow } from '../cdr/record-columns';
import { DAY_MS, HOUR_MS } from '../time/zone-days';
import { joinRanges, type TimeRange } from '../query/ranges';
import { packPlan, utcDaysOf } from './pack-plan';
import type { Database, HistoryRecordsTable, SqlDialect } from './db/schema';
import { IdSet, packsServe, scanPack, type DayPack } from './day-pack';
import type { DayPackStore } from './day-packs';
import { rollupPlan, rollupsServe, type RollupDimension } from './history-rollups';
import type { HistoryWriter } from './history-writer';

export type { HistoryRecordRow };

export interface HistorySettings {
  scope: string;
  apiKey: string;
  enterpriseId: string | null;
  enabled: boolean;
  sinceDay: string;
  keepSignedOut: boolean;
  /** Only while keepSignedOut: the sealed secret the copy renews its token with. */
  sealedSecret: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface HistoryDay<P = unknown> {
  day: string;
  /** `building`: every page read and staged, the records going in (buildDay). */
  state: 'syncing' | 'building' | 'complete';
  progress: P;
  records: number;
  calls: number;
  updatedAt: number;
  completedAt: number | null;
}

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

export interface HistoryResult {
  key: string;
  filters: Record<string, string>;
  from: number;
  to: number;
}

/** See HistoryStore.buildDay. */
export type DayVerifier<P> = (progress: P, held: (from: number, to: number) => Promise<number>) => Promise<P | null>;

export interface HistoryStore {
  getSettings(scope: string): Promise<HistorySettings | null>;
  putSettings(settings: HistorySettings): Promise<void>;
  /** Scopes whose copy is wanted (the sync runner's work list). */
  enabledScopes(): Promise<HistorySettings[]>;
  /** Every scope with settings (retention is enforced on paused copies too). */
  allSettings(): Promise<HistorySettings[]>;
  /** Forgets the scope's copy: records, days, results and settings. */
  deleteScope(scope: string): Promise<void>;
  /** Forgets the records and days before `day` (the start day, MIRROR_MAX_DAYS). */
  deleteBefore(scope: string, day: string): Promise<void>;

  listDays<P>(scope: string): Promise<HistoryDay<P>[]>;
  getDay<P>(scope: string, day: string): Promise<HistoryDay<P> | null>;
  /** Complete days between `from` and `to` (inclusive). */
  completeDays(scope: string, from: string, to: string): Promise<string[]>;
  /**
   * Stages an upstream page of a day being copied (`records`: its records as JSON; none when the
   * step learnt something without records) with the day's progress, in one transaction.
   */
  stageDayPage<P>(scope: string, day: HistoryDay<P>, records: string | null): Promise<void>;
  /**
   * Moves a day's staged pages into the data, a slice at a time (each slice written, then its
   * staged pages dropped); once every page of the day is read (state `building`) and in, marks the
   * day complete with its record count (answered) and asks for its pack. Null when the day is not
   * complete yet (more pages to read), no longer copied (deleted), or `signal` stopped it; a build
   * stopped half-way is simply run again: it adds only what is missing.
   *
   * `verify`, once every record is in, checks the day against what it holds (`held`: records held
   * received in [from, to], both included) and answers null when it may be complete, else the
   * day's progress to save instead (saying why): the day goes back to `syncing` and is not complete.
   */
  buildDay<P>(scope: string, day: string, signal?: AbortSignal, verify?: DayVerifier<P>): Promise<{ records: number } | null>;
  /**
   * Stores records of a day straight away, with the day's progress (no staging): for loading a
   * copy from elsewhere (benchmarks, tests). `inDay` are counted in the day's records, `beyond`
   * (the next day's first instant) not; a day saved `complete` is finished as buildDay does.
   */
  commitDayPage<P>(scope: string, day: HistoryDay<P>, inDay: readonly HistoryRecordRow[], beyond: readonly HistoryRecordRow[]): Promise<void>;

  results(scope: string): Promise<HistoryResult[]>;
  /**
   * Records of a complete result of the page cache being copied (putResult follows once all are
   * in), by the history writer: an export's window holds tens of thousands.
   */
  addResultRecords(scope: string, records: readonly HistoryRecordRow[]): Promise<void>;
  /**
   * A complete result: the range and filters its records (stored before, by addResultRecords)
   * complete. Until it is written nothing reads the range from here.
   */
  putResult(scope: string, result: HistoryResult, records: number, now: number): Promise<void>;

  /** The record of a trx_id in the scope's copy (JSON), or null. */
  record(scope: string, trxId: string): Promise<string | null>;
  count(search: LocalSearch): Promise<number>;
  /** The records (JSON) at positions [offset, offset + limit) of the search's order. */
  page(search: LocalSearch, offset: number, limit: number): Promise<string[]>;
  /**
   * count and page together, as a search of the table asks: a search the rollups cannot count
   * reads its matching rows once for both (a free text matching 70,000 records of a month, read
   * twice, cost twice).
   */
  slice(search: LocalSearch, offset: number, limit: number): Promise<{ total: number; bodies: string[] }>;
  /** Asks for the packs of the scope's complete days that have none (built when the writer is idle); answers how many. */
  queueMissingPacks(scope: string): Promise<number>;
  /** Resolves once every write to the data asked for so far is done, packs included (tests, benchmarks). */
  settled(): Promise<void>;
  /** Gets the writer ready ahead of its first write (its thread starts: the sync runner's start); resolves once it is. */
  warmUp(): Promise<void>;
  /** Records kept for the scope, and on disk how many bytes the copy takes (approximate). */
  size(scope: string): Promise<{ records: number }>;
}

/** From this offset on, a page in received-time order is found through the hourly rollups (seek). */
const SEEK_FROM_OFFSET = 2_000;

/** Finds of the text index looked up one by one whatever the range (a few ms: see textFirst). */
const FEW_FINDS = 2_000;

/** Columns whose conditions pick a few records each (see searchWhere). */
const SELECTIVE_COLUMNS = new Set<RecordColumn>(['to_address', 'to_rev', 'ref', 'trx_id']);

/**
 * Staged pages moved into the data per write, at most: about 2,000 records, some tens of ms of the
 * writer's time.
 */
const PAGES_PER_BUILD_SLICE = 20;
/**
 * A day still being read goes in once this many of its pages are staged (the rest when every page
 * is read): its staged pages stay few, and the writer starts early; fewer per write would cost more
 * a record (the text index writes a segment per transaction).
 */
const PAGES_TO_START_BUILDING = 8;

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
 * (lib/store/insights-store.ts), so a filter means the same everywhere.
 */
export function searchWhere(search: LocalSearch, dialect: SqlDialect, plan: { textFirst?: boolean; textScan?: boolean } = {}) {
  // Which index SQLite should read (`+column` keeps it from using that column's index):
  //  - a condition that picks a handful of records (a number, its last digits, a reference): its
  //    own index, the time range only checked (else the planner walks a month of received time);
  //  - `textFirst` (the store decides it: textFirst in createHistoryStore): the records the trigram
  //    index finds, each looked up by id, instead of every record of the range looked up in the
  //    index's answer;
  //  - `textScan`: the text of each record of the range read (LIKE on the same lower-cased text),
  //    for a range of a few records (the edge of a search the day packs answer), where building
  //    the list of the index's finds would cost more than the whole read.
  // PostgreSQL plans from its statistics; the plus is left out there.
  const selective = isSelective(search);
  const textFirst = !selective && plan.textFirst === true;
  const column = (name: 'scope' | 'received_ms', plus: boolean) => sql.raw(`${plus && dialect === 'sqlite' ? '+' : ''}history_records.${name}`);
  const scope = column('scope', textFirst);
  const received = column('received_ms', selective || textFirst);
  return (eb: ExpressionBuilder<Database, 'history_records'>) => {
    const parts: Expression<SqlBool>[] = [sql<SqlBool>`${scope} = ${search.scope}`];
    parts.push(eb.or(joinRanges(search.ranges).map((r) => sql<SqlBool>`${received} between ${r.from} and ${r.to}`)));
    for (const c of search.where) {
      if (c.op === 'prefix') parts.push(eb.and([eb(c.column, '>=', c.value), eb(c.column, '<', prefixUpperBound(c.value))]));
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
  const last = [...needle].pop()!;
  const upper = needle.slice(0, needle.length - last.length) + String.fromCodePoint(last.codePointAt(0)! + 1);
  return sql<string>`(select coalesce(group_concat('"' || replace(term, '"', '""') || '"', ' OR '), '""') from history_fts_vocab where term >= ${needle} and term < ${upper})`;
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

/** Free text: FTS5 trigram (SQLite) or pg_trgm-indexed ILIKE (PostgreSQL); LIKE for other short text. */
function textCondition(text: string, dialect: SqlDialect, scan: boolean): Expression<SqlBool> {
  const needle = text.toLowerCase();
  if (dialect === 'postgres') return sql<SqlBool>`search_text ilike ${`%${likeLiteral(needle)}%`} escape '\\'`;
  if (scan || !textUsesIndex(needle)) return sql<SqlBool>`search_text like ${`%${likeLiteral(needle)}%`} escape '\\'`;
  return sql<SqlBool>`history_records.id in (${ftsIds(needle)})`;
}

/**
 * The ids of the records whose text holds the search's text: SQLite's trigram index answers
 * (every scope: the caller keeps its own records; see ftsIds), other text is read from the
 * search's range.
 * As one comma-separated list: hundreds of thousands of ids as rows cost three times as much.
 */
export async function textMatchIds(db: Kysely<Database>, dialect: SqlDialect, search: Pick<LocalSearch, 'scope' | 'ranges'> & { text: string }): Promise<number[]> {
  const list = dialect === 'postgres' ? sql<string | null>`string_agg(id::text, ',')` : sql<string | null>`group_concat(id)`;
  const found =
    dialect === 'sqlite' && textUsesIndex(search.text.toLowerCase())
      ? await sql<{ ids: string | null }>`select group_concat(id) as ids from (${ftsIds(search.text.toLowerCase())})`.execute(db)
      : await db.selectFrom('history_records').select(list.as('ids')).where(searchWhere({ ...search, where: [], order: 'asc' }, dialect)).execute().then((rows) => ({ rows }));
  const ids = found.rows[0]?.ids;
  return ids ? (JSON.parse(`[${ids}]`) as number[]) : [];
}

/**
 * `fewFinds`: up to how many finds a free text is looked up record by record rather than through
 * the day packs (a test sets 0 to have the packs answer every text).
 */
export function createHistoryStore(db: Kysely<Database>, dialect: SqlDialect, writer: HistoryWriter, dayPacks: DayPackStore, options: { fewFinds?: number } = {}): HistoryStore {
  const fewFinds = options.fewFinds ?? FEW_FINDS;

  /**
   * A count the rollups can answer: whole UTC days from the daily rollups, whole hours from the
   * hourly ones, the rest from the records — a month sums a few thousand rows, not a million.
   */
  const countFromRollups = async (search: LocalSearch): Promise<number> => {
    const plan = rollupPlan(search.ranges);
    const conditions = <T extends 'history_rollups_daily' | 'history_rollups_hourly'>(eb: ExpressionBuilder<Database, T>) => rollupConditions(eb, search);
    let total = plan.edges.length > 0 ? await countRecords({ ...search, ranges: plan.edges }) : 0;
    if (plan.days.length > 0) {
      const row = await db
        .selectFrom('history_rollups_daily')
        .select((eb) => eb.fn.sum<number>('records').as('n'))
        .where((eb) => eb.and([eb('scope', '=', search.scope), eb('zone', '=', 'UTC'), eb('day', 'in', plan.days), ...conditions(eb)]))
        .executeTakeFirstOrThrow();
      total += Number(row.n ?? 0);
    }
    if (plan.hours.length > 0) {
      const row = await db
        .selectFrom('history_rollups_hourly')
        .select((eb) => eb.fn.sum<number>('records').as('n'))
        .where((eb) => eb.and([eb('scope', '=', search.scope), eb.or(plan.hours.map((h) => eb.between('hour_ms', h.from, h.to))), ...conditions(eb)]))
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
    if (dialect !== 'sqlite' || search.text === undefined || !textUsesIndex(search.text) || isSelective(search)) return false;
    const found = await sql<{ n: number }>`select count(*) as n from history_fts where history_fts match ${ftsMatch(search.text)}`.execute(db);
    const finds = Number(found.rows[0]?.n ?? 0);
    // So few finds are looked up sooner than the range is counted (a month's daily rollups).
    if (finds <= FEW_FINDS) return true;
    // A lookup by id costs a few steps of a range scan.
    return finds * 4 < (await countFromRollups({ ...search, where: [], text: undefined }));
  };

  const whereOf = async (search: LocalSearch) => searchWhere(search, dialect, { textFirst: await textFirst(search) });

  /** Conditions of a search on a rollup table's columns (rollupsServe: all of them are). */
  const rollupConditions = <T extends 'history_rollups_daily' | 'history_rollups_hourly'>(eb: ExpressionBuilder<Database, T>, search: LocalSearch) =>
    search.where.map((c) => eb(eb.ref(c.column as RollupDimension) as never, '=', c.value as never));

  /**
   * A deep page in received-time order (page 1000 of a filtered month) would skip tens of thousands
   * of records one by one. The rollups count them instead: the daily counts find the day the page
   * starts in, that day's hourly counts the hour; the page's range is narrowed to start there (and
   * run on in the search's order), the offset to what is left; null when the offset is past the
   * last record. Only for filters the rollups count, one range, and offsets worth the lookups
   * (without a filter the received-time index skips fast).
   */
  const seek = async (search: LocalSearch, offset: number): Promise<{ search: LocalSearch; offset: number } | null> => {
    if (offset < SEEK_FROM_OFFSET || search.sort || search.ranges.length !== 1 || search.where.length === 0 || !rollupsServe(search)) return { search, offset };
    const range = search.ranges[0]!;
    const located = await locate(search, offset, await segmentsOf(search, range, DAY_MS));
    if (!located) return null; // past the last record
    let { segment, skipped } = located;
    if (segment.n !== null) {
      // A whole day: its hours next.
      const within = await locate(search, offset - skipped, await segmentsOf(search, segment, HOUR_MS));
      if (within) [segment, skipped] = [within.segment, skipped + within.skipped];
    }
    const narrowed = search.order === 'desc' ? { from: range.from, to: segment.to } : { from: segment.from, to: range.to };
    return { search: { ...search, ranges: [narrowed] }, offset: offset - skipped };
  };

  type Segment = { from: number; to: number; n: number | null };

  /** `range` cut into whole units (days or hours, counted from their rollups) and ragged ends (n: null, counted from the records), in the search's order. */
  const segmentsOf = async (search: LocalSearch, range: { from: number; to: number }, unit: number): Promise<Segment[]> => {
    const first = Math.ceil(range.from / unit) * unit;
    const last = Math.floor((range.to + 1) / unit) * unit - unit;
    if (first > last) return [{ ...range, n: null }];
    const counts =
      unit === DAY_MS
        ? await db
            .selectFrom('history_rollups_daily')
            .select([sql<number>`cast(day as bigint) * ${DAY_MS}`.as('at'), (eb) => eb.fn.sum<number>('records').as('n')])
            .where((eb) => eb.and([eb('scope', '=', search.scope), eb('zone', '=', 'UTC'), eb.between('day', first / DAY_MS, last / DAY_MS), ...rollupConditions(eb, search)]))
            .groupBy('day')
            .execute()
        : await db
            .selectFrom('history_rollups_hourly')
            .select([sql<number>`hour_ms`.as('at'), (eb) => eb.fn.sum<number>('records').as('n')])
            .where((eb) => eb.and([eb('scope', '=', search.scope), eb.between('hour_ms', first, last), ...rollupConditions(eb, search)]))
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
  const locate = async (search: LocalSearch, offset: number, segments: Segment[]): Promise<{ segment: Segment; skipped: number } | null> => {
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
  const pageIds = async (search: LocalSearch, offset: number, limit: number, where: ReturnType<typeof searchWhere>, withTotal: boolean): Promise<{ ids: (number | string)[]; total: number | null }> => {
    const dir = search.order === 'desc' ? sql`desc` : sql`asc`;
    // Absent values sort as the smallest in both dialects (SQLite and PostgreSQL differ by default).
    const nulls = search.order === 'desc' ? sql`nulls last` : sql`nulls first`;
    let q = db
      .selectFrom('history_records')
      .select(['id', (withTotal ? sql<number>`count(*) over ()` : sql<number>`0`).as('total')])
      .where(where);
    if (search.sort && !('column' in search.sort && search.sort.column === 'received_ms')) q = q.orderBy(sql`${sortExpression(search.sort)} ${dir} ${nulls}`);
    const rows = await q.orderBy(sql`received_ms ${dir}`).orderBy(sql`trx_id ${dir}`).limit(limit).offset(offset).execute();
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
  const packSlice = async (search: LocalSearch, offset: number, limit: number): Promise<{ total: number; ids: number[] } | null> => {
    const receivedOrder = !search.sort || ('column' in search.sort && search.sort.column === 'received_ms');
    if (!receivedOrder || rollupsServe(search) || !packsServe(search.where)) return null;
    const packs = await dayPacks.packs(search.scope, utcDaysOf(search.ranges));
    if (packs.size === 0) return null;
    const plan = packPlan(search.ranges, new Set(packs.keys()));
    if (plan.between.length > 0) return null;
    const ids = search.text === undefined ? undefined : new IdSet(await textMatchIds(db, dialect, { ...search, text: search.text }));
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
        const kept = scanPack(piece.pack, { ranges: plan.packed, where: search.where, ...(ids ? { ids } : {}) }, search.order);
        for (let j = from; j < kept.length && j < from + wanted; j++) page.push(piece.pack.ids[kept[j]!]!);
        total += kept.length;
        continue;
      }
      const sub = { ...search, ranges: piece.ranges };
      const where = searchWhere(sub, dialect, { textScan: true });
      const row = await db.selectFrom('history_records').select((eb) => eb.fn.countAll<number>().as('n')).where(where).executeTakeFirstOrThrow();
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
    const bodies = await db.selectFrom('history_bodies').select(['id', 'body']).where('id', 'in', ids as number[]).execute();
    // PostgreSQL answers its bigint ids as strings: keyed by their text either way.
    const byId = new Map(bodies.map((b) => [String(b.id), b.body]));
    return ids.map((id) => byId.get(String(id))!);
  };

  /** Writes a day's row as `day` says (its records as counted so far). */
  /** Records the scope holds received in [from, to], both included (the received-time index counts them). */
  const countHeld = async (scope: string, from: number, to: number): Promise<number> => {
    const row = await db
      .selectFrom('history_records')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('scope', '=', scope)
      .where('received_ms', '>=', from)
      .where('received_ms', '<=', to)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  const saveDay = async (q: Kysely<Database>, scope: string, day: HistoryDay): Promise<void> => {
    const row = {
      scope,
      day: day.day,
      state: day.state,
      progress: JSON.stringify(day.progress),
      records: day.records,
      calls: day.calls,
      updated_at: day.updatedAt,
      completed_at: day.completedAt,
    };
    const { scope: _s, day: _d, ...changes } = row;
    await q
      .insertInto('history_days')
      .values(row)
      .onConflict((oc) => oc.columns(['scope', 'day']).doUpdateSet(changes))
      .execute();
  };

  const toSettings = (r: Database['history_settings']): HistorySettings => ({
    scope: r.scope,
    apiKey: r.api_key,
    enterpriseId: r.enterprise_id,
    enabled: r.enabled === 1,
    sinceDay: r.since_day,
    keepSignedOut: r.keep_signed_out === 1,
    sealedSecret: r.sealed_secret,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  });

  const toDay = <P>(r: Database['history_days']): HistoryDay<P> => ({
    day: r.day,
    state: r.state,
    progress: JSON.parse(r.progress) as P,
    records: r.records,
    calls: r.calls,
    updatedAt: r.updated_at,
    completedAt: r.completed_at,
  });

  return {
    async getSettings(scope) {
      const row = await db.selectFrom('history_settings').selectAll().where('scope', '=', scope).executeTakeFirst();
      return row ? toSettings(row) : null;
    },
    async putSettings(s) {
      const row = {
        scope: s.scope,
        api_key: s.apiKey,
        enterprise_id: s.enterpriseId,
        enabled: s.enabled ? 1 : 0,
        since_day: s.sinceDay,
        keep_signed_out: s.keepSignedOut ? 1 : 0,
        sealed_secret: s.keepSignedOut ? s.sealedSecret : null,
        created_at: s.createdAt,
        updated_at: s.updatedAt,
      };
      const { scope: _scope, created_at: _created, ...changes } = row;
      await db.insertInto('history_settings').values(row).onConflict((oc) => oc.column('scope').doUpdateSet(changes)).execute();
    },
    async enabledScopes() {
      const rows = await db.selectFrom('history_settings').selectAll().where('enabled', '=', 1).orderBy('created_at').execute();
      return rows.map(toSettings);
    },
    async allSettings() {
      const rows = await db.selectFrom('history_settings').selectAll().execute();
      return rows.map(toSettings);
    },
    async deleteScope(scope) {
      // What says the copy exists goes first: from then on nothing reads its data, whatever is left.
      await db.transaction().execute(async (trx) => {
        for (const table of ['history_days', 'history_results', 'history_staged_pages', 'history_settings'] as const) await trx.deleteFrom(table).where('scope', '=', scope).execute();
      });
      await writer.deleteScope(scope);
      dayPacks.evict(scope);
      // The log still holds the staged pages as they were written: emptied, so they are gone from
      // disk. (The writer empties the history file's own.)
      if (dialect === 'sqlite') await sql`pragma main.wal_checkpoint(TRUNCATE)`.execute(db);
    },
    async deleteBefore(scope, day) {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('history_days').where('scope', '=', scope).where('day', '<', day).execute();
        await trx.deleteFrom('history_staged_pages').where('scope', '=', scope).where('day', '<', day).execute();
        await trx.deleteFrom('history_results').where('scope', '=', scope).where('from_ms', '<', sql<number>`${Date.parse(`${day}T00:00:00Z`)}`).execute();
      });
      await writer.deleteBefore(scope, day);
      // No longer served (their days are gone), and not kept in memory either.
      dayPacks.evict(scope);
    },

    async listDays<P>(scope: string) {
      const rows = await db.selectFrom('history_days').selectAll().where('scope', '=', scope).orderBy('day', 'desc').execute();
      return rows.map((r) => toDay<P>(r));
    },
    async getDay<P>(scope: string, day: string) {
      const row = await db.selectFrom('history_days').selectAll().where('scope', '=', scope).where('day', '=', day).executeTakeFirst();
      return row ? toDay<P>(row) : null;
    },
    async completeDays(scope, from, to) {
      const rows = await db
        .selectFrom('history_days')
        .select('day')
        .where('scope', '=', scope)
        .where('state', '=', 'complete')
        .where('day', '>=', from)
        .where('day', '<=', to)
        .orderBy('day')
        .execute();
      return rows.map((r) => r.day);
    },
    async stageDayPage(scope, day, records) {
      await db.transaction().execute(async (trx) => {
        // A step that read its page before the copy was paused, deleted or given a later start day
        // writes nothing: what it would write back is what the change just removed.
        const settings = await trx.selectFrom('history_settings').select(['enabled', 'since_day']).where('scope', '=', scope).executeTakeFirst();
        if (!settings || !settings.enabled || day.day < settings.since_day) return;
        if (records !== null) {
          const last = await trx.selectFrom('history_staged_pages').select((eb) => eb.fn.max('seq').as('seq')).where('scope', '=', scope).where('day', '=', day.day).executeTakeFirst();
          await trx.insertInto('history_staged_pages').values({ scope, day: day.day, seq: Number(last?.seq ?? 0) + 1, records }).execute();
        }
        await saveDay(trx, scope, day);
      });
    },
    async buildDay<P>(scope: string, day: string, signal?: AbortSignal, verify?: DayVerifier<P>) {
      const stateOf = async () => (await db.selectFrom('history_days').select('state').where('scope', '=', scope).where('day', '=', day).executeTakeFirst())?.state;
      for (;;) {
        if (signal?.aborted) return null;
        const state = await stateOf();
        if (state !== 'syncing' && state !== 'building') return null;
        // The slice's pages by their place only: the writer reads their records itself.
        const pages = await db.selectFrom('history_staged_pages').select('seq').where('scope', '=', scope).where('day', '=', day).orderBy('seq').limit(PAGES_PER_BUILD_SLICE).execute();
        if (state === 'syncing' && pages.length < PAGES_TO_START_BUILDING) return null;
        if (pages.length > 0) {
          const through = pages[pages.length - 1]!.seq;
          await writer.addStagedPages(scope, day, through);
          // In the data now: a crash before this line only adds them again, and adds nothing twice.
          await db.deleteFrom('history_staged_pages').where('scope', '=', scope).where('day', '=', day).where('seq', '<=', through).execute();
          continue;
        }
        // Every staged page is in; the day is complete once every page is read.
        if (state === 'syncing') return null;
        const { records } = await writer.finishDay(scope, day);
        const now = Date.now();
        const row = verify ? await db.selectFrom('history_days').select('progress').where('scope', '=', scope).where('day', '=', day).executeTakeFirst() : undefined;
        const instead = row && verify ? await verify(JSON.parse(row.progress) as P, (from, to) => countHeld(scope, from, to)) : null;
        if (instead) {
          await db
            .updateTable('history_days')
            .set({ state: 'syncing', progress: JSON.stringify(instead), updated_at: now })
            .where('scope', '=', scope)
            .where('day', '=', day)
            .where('state', '=', 'building')
            .execute();
          return null;
        }
        const done = await db
          .updateTable('history_days')
          .set({ state: 'complete', records, completed_at: now, updated_at: now })
          .where('scope', '=', scope)
          .where('day', '=', day)
          .where('state', '=', 'building')
          .executeTakeFirst();
        if (Number(done.numUpdatedRows) === 0) return null;
        writer.buildPackWhenIdle(scope, day);
        return { records };
      }
    },
    async commitDayPage(scope, day, inDay, beyond) {
      const added = await writer.addRecords(scope, inDay);
      await writer.addRecords(scope, beyond);
      day.records += added;
      if (day.state === 'complete') day.records = (await writer.finishDay(scope, day.day)).records;
      await saveDay(db, scope, day);
      if (day.state === 'complete') writer.buildPackWhenIdle(scope, day.day);
    },

    async results(scope) {
      const rows = await db.selectFrom('history_results').select(['result_key', 'filters', 'from_ms', 'to_ms']).where('scope', '=', scope).execute();
      return rows.map((r) => ({ key: r.result_key, filters: JSON.parse(r.filters) as Record<string, string>, from: r.from_ms, to: r.to_ms }));
    },
    async addResultRecords(scope, records) {
      // Records without their result are never read: a search uses the local history only for
      // ranges that complete days or recorded results cover, and any record of those is in already.
      await writer.addRecords(scope, records);
    },
    async putResult(scope, result, records, now) {
      const row = { scope, result_key: result.key, filters: JSON.stringify(result.filters), from_ms: result.from, to_ms: result.to, records, created_at: now };
      await db
        .insertInto('history_results')
        .values(row)
        .onConflict((oc) => oc.columns(['scope', 'result_key']).doUpdateSet({ from_ms: row.from_ms, to_ms: row.to_ms, records: row.records, created_at: now }))
        .execute();
    },

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
    async queueMissingPacks(scope) {
      const days = await dayPacks.missing(scope);
      for (const day of days) writer.buildPackWhenIdle(scope, day);
      return days.length;
    },
    settled: () => writer.idle(),
    warmUp: () => writer.warmUp(),
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
