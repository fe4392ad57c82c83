import 'server-only';
/**
 * The local history (migration 0006-history and after): per scope its settings, its days, the
 * pages of days being synced, its complete results — the store's own tables, written here — and
 * its data — records, text index, rollups, day packs — written by the history writer
 * (./writer.ts) and searched by ./history-search.ts. The same statements serve SQLite and
 * PostgreSQL.
 *
 * A day is synced in two steps. Each upstream page is staged as it comes (stageDayPage: one row,
 * with the day's progress, in one transaction: a restart resumes at the first page not staged and
 * never pays for one twice), so the sync's next call goes at once. Staged pages go into the data
 * in the background (buildDay), and once every page is read and in, the day is complete.
 *
 * Every read and write names the scope: one account's local history is never read for another.
 */
import { sql, type Kysely } from 'kysely';
import type { HistoryRecordRow } from '../../cdr/record-columns';
import { zoneDayIndex } from '../../time/zone-days';
import type { Database, SqlDialect } from '../../db/schema';
import type { DayPackStore } from './day-pack-store';
import { createHistorySearch, type HistorySearch, type RecordReads } from './history-search';
import type { TextIndex } from './text-search';
import type { HistoryWriter } from './writer';
import { postgresTextIndex } from './text-postgres';
import { inlineTextLookup, sqliteTextIndex } from './text-thread';

export type { HistoryRecordRow };

export interface HistorySettings {
  scope: string;
  apiKey: string;
  enterpriseId: string | null;
  enabled: boolean;
  sinceDay: string;
  keepSignedOut: boolean;
  /** Only while keepSignedOut: the sealed secret the sync renews its token with. */
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

export interface HistoryResult {
  key: string;
  filters: Record<string, string>;
  from: number;
  to: number;
}

/** See HistoryStore.buildDay. */
export type DayVerifier<P> = (progress: P, held: (from: number, to: number) => Promise<number>) => Promise<P | null>;

/** The local history's state and writes, and its searches (./history-search.ts: count, page, slice, a record, its size). */
export interface HistoryStore extends Omit<HistorySearch, 'countHeld'> {
  /** The records' searches as Insights reads them (the same WHERE, the same free text). */
  reads: RecordReads;
  getSettings(scope: string): Promise<HistorySettings | null>;
  putSettings(settings: HistorySettings): Promise<void>;
  /** Scopes whose local history is wanted (the sync runner's work list). */
  enabledScopes(): Promise<HistorySettings[]>;
  /** Every scope with settings (retention is enforced on paused local histories too). */
  allSettings(): Promise<HistorySettings[]>;
  /** Forgets the scope's local history: records, days, results and settings. */
  deleteScope(scope: string): Promise<void>;
  /** Forgets the records and days before `day` (the start day, HISTORY_MAX_DAYS). */
  deleteBefore(scope: string, day: string): Promise<void>;

  listDays<P>(scope: string): Promise<HistoryDay<P>[]>;
  /**
   * The days being synced or built (not complete), with their progress: what the sync's next step
   * needs, read without the progress of every complete day (hundreds in a long sync).
   */
  unfinishedDays<P>(scope: string): Promise<HistoryDay<P>[]>;
  getDay<P>(scope: string, day: string): Promise<HistoryDay<P> | null>;
  /** Complete days between `from` and `to` (inclusive). */
  completeDays(scope: string, from: string, to: string): Promise<string[]>;
  /** Whether the scope holds any record of enterprise `enterpriseId` received on the UTC days from instant `from` to `to` (ms). */
  holdsEnterprise(scope: string, enterpriseId: string, from: number, to: number): Promise<boolean>;
  /**
   * Stages an upstream page of a day being synced (`records`: its records as JSON; none when the
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
  buildDay<P>(
    scope: string,
    day: string,
    signal?: AbortSignal,
    verify?: DayVerifier<P>,
  ): Promise<{ records: number } | null>;
  /**
   * Stores records of a day straight away, with the day's progress (no staging): for loading a
   * copy from elsewhere (benchmarks, tests). `inDay` are counted in the day's records, `beyond`
   * (the next day's first instant) not; a day saved `complete` is finished as buildDay does.
   */
  commitDayPage<P>(
    scope: string,
    day: HistoryDay<P>,
    inDay: readonly HistoryRecordRow[],
    beyond: readonly HistoryRecordRow[],
  ): Promise<void>;

  results(scope: string): Promise<HistoryResult[]>;
  /**
   * Records of a complete result of the page cache being added (putResult follows once all are
   * in), by the history writer: an export's window holds tens of thousands.
   */
  addResultRecords(scope: string, records: readonly HistoryRecordRow[]): Promise<void>;
  /**
   * A complete result: the range and filters its records (stored before, by addResultRecords)
   * complete. Until it is written nothing reads the range from here.
   */
  putResult(scope: string, result: HistoryResult, records: number, now: number): Promise<void>;
  /** Every scope holding complete results, with when its oldest was copied and how many days it holds. */
  resultScopes(): Promise<{ scope: string; oldestCreatedAt: number; oldestTo: number; days: number }[]>;
  /**
   * Forgets a scope's complete results and every record of it (a copy that is off holds nothing
   * else): records, bodies, text index, rollups. Its settings, if any, stay.
   */
  forgetResults(scope: string): Promise<void>;

  /** Asks for the packs of the scope's complete days that have none (built when the writer is idle); answers how many. */
  queueMissingPacks(scope: string): Promise<number>;
  /** Resolves once every write to the data asked for so far is done, packs included (tests, benchmarks). */
  settled(): Promise<void>;
  /** Gets the writer ready ahead of its first write (its thread starts: the sync runner's start); resolves once it is. */
  warmUp(): Promise<void>;
}

/**
 * Staged pages moved into the data per write, at most: about 2,000 records, some tens of ms of the
 * writer's time.
 */
const PAGES_PER_BUILD_SLICE = 20;
/**
 * A day still being read goes in once this many of its pages are staged (the rest when every page
 * is read). As many as a slice holds: a day of up to 2,000 records goes in with one transaction,
 * once it is read, and a larger one a slice at a time while it is read. Each transaction writes
 * every index page it touched and the text index a segment of its own, so fewer, larger ones cost
 * less a record: starting at 8 pages (two transactions for a day of 1,500 records) the sync costs
 * about 0.7 ms a page more (bench/NOTES.md).
 */
const PAGES_TO_START_BUILDING = PAGES_PER_BUILD_SLICE;

/**
 * `text`: where free text is looked up (./text-search.ts; by default on this connection: SQLite's
 * text thread is the server's, lib/root/open-store.ts). `options.fewFinds`: see createHistorySearch.
 */
export function createHistoryStore(
  db: Kysely<Database>,
  dialect: SqlDialect,
  writer: HistoryWriter,
  dayPacks: DayPackStore,
  options: { fewFinds?: number; text?: TextIndex } = {},
): HistoryStore {
  const text = options.text ?? (dialect === 'postgres' ? postgresTextIndex(db) : sqliteTextIndex(inlineTextLookup(db)));
  const search = createHistorySearch(db, dialect, dayPacks, text, options);

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
      await db
        .insertInto('history_settings')
        .values(row)
        .onConflict((oc) => oc.column('scope').doUpdateSet(changes))
        .execute();
    },
    async enabledScopes() {
      const rows = await db
        .selectFrom('history_settings')
        .selectAll()
        .where('enabled', '=', 1)
        .orderBy('created_at')
        .execute();
      return rows.map(toSettings);
    },
    async allSettings() {
      const rows = await db.selectFrom('history_settings').selectAll().execute();
      return rows.map(toSettings);
    },
    async deleteScope(scope) {
      // What says the local history exists goes first: from then on nothing reads its data, whatever is left.
      await db.transaction().execute(async (trx) => {
        for (const table of ['history_days', 'history_results', 'history_staged_pages', 'history_settings'] as const)
          await trx.deleteFrom(table).where('scope', '=', scope).execute();
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
        await trx
          .deleteFrom('history_results')
          .where('scope', '=', scope)
          .where('from_ms', '<', sql<number>`${Date.parse(`${day}T00:00:00Z`)}`)
          .execute();
      });
      await writer.deleteBefore(scope, day);
      // No longer served (their days are gone), and not kept in memory either.
      dayPacks.evict(scope);
    },

    async listDays<P>(scope: string) {
      const rows = await db
        .selectFrom('history_days')
        .selectAll()
        .where('scope', '=', scope)
        .orderBy('day', 'desc')
        .execute();
      return rows.map((r) => toDay<P>(r));
    },
    async unfinishedDays<P>(scope: string) {
      const rows = await db
        .selectFrom('history_days')
        .selectAll()
        .where('scope', '=', scope)
        .where('state', '<>', 'complete')
        .execute();
      return rows.map((r) => toDay<P>(r));
    },
    async getDay<P>(scope: string, day: string) {
      const row = await db
        .selectFrom('history_days')
        .selectAll()
        .where('scope', '=', scope)
        .where('day', '=', day)
        .executeTakeFirst();
      return row ? toDay<P>(row) : null;
    },
    async holdsEnterprise(scope, enterpriseId, from, to) {
      // The daily rollups of one zone: every record is counted there, in far fewer rows than it has,
      // and the range's days are a range of their key.
      const row = await db
        .selectFrom('history_rollups_daily')
        .select('day')
        .where('scope', '=', scope)
        .where('zone', '=', 'UTC')
        .where('day', '>=', zoneDayIndex(from, 'UTC'))
        .where('day', '<=', zoneDayIndex(to, 'UTC'))
        .where('enterprise_id', '=', enterpriseId)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
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
        // A step that read its page before the sync was paused, deleted or given a later start day
        // writes nothing: what it would write back is what the change just removed.
        const settings = await trx
          .selectFrom('history_settings')
          .select(['enabled', 'since_day'])
          .where('scope', '=', scope)
          .executeTakeFirst();
        if (!settings || !settings.enabled || day.day < settings.since_day) return;
        if (records !== null) {
          const last = await trx
            .selectFrom('history_staged_pages')
            .select((eb) => eb.fn.max('seq').as('seq'))
            .where('scope', '=', scope)
            .where('day', '=', day.day)
            .executeTakeFirst();
          await trx
            .insertInto('history_staged_pages')
            .values({ scope, day: day.day, seq: Number(last?.seq ?? 0) + 1, records })
            .execute();
        }
        await saveDay(trx, scope, day);
      });
    },
    async buildDay<P>(scope: string, day: string, signal?: AbortSignal, verify?: DayVerifier<P>) {
      const stateOf = async () =>
        (
          await db
            .selectFrom('history_days')
            .select('state')
            .where('scope', '=', scope)
            .where('day', '=', day)
            .executeTakeFirst()
        )?.state;
      for (;;) {
        if (signal?.aborted) return null;
        const state = await stateOf();
        if (state !== 'syncing' && state !== 'building') return null;
        // The slice's pages by their place only: the writer reads their records itself.
        const pages = await db
          .selectFrom('history_staged_pages')
          .select('seq')
          .where('scope', '=', scope)
          .where('day', '=', day)
          .orderBy('seq')
          .limit(PAGES_PER_BUILD_SLICE)
          .execute();
        if (state === 'syncing' && pages.length < PAGES_TO_START_BUILDING) return null;
        if (pages.length > 0) {
          const through = pages[pages.length - 1]!.seq;
          await writer.addStagedPages(scope, day, through);
          // In the data now: a crash before this line only adds them again, and adds nothing twice.
          await db
            .deleteFrom('history_staged_pages')
            .where('scope', '=', scope)
            .where('day', '=', day)
            .where('seq', '<=', through)
            .execute();
          continue;
        }
        // Every staged page is in; the day is complete once every page is read.
        if (state === 'syncing') return null;
        const { records } = await writer.finishDay(scope, day);
        const now = Date.now();
        const row = verify
          ? await db
              .selectFrom('history_days')
              .select('progress')
              .where('scope', '=', scope)
              .where('day', '=', day)
              .executeTakeFirst()
          : undefined;
        const instead =
          row && verify
            ? await verify(JSON.parse(row.progress) as P, (from, to) => search.countHeld(scope, from, to))
            : null;
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
      const rows = await db
        .selectFrom('history_results')
        .select(['result_key', 'filters', 'from_ms', 'to_ms'])
        .where('scope', '=', scope)
        .execute();
      return rows.map((r) => ({
        key: r.result_key,
        filters: JSON.parse(r.filters) as Record<string, string>,
        from: r.from_ms,
        to: r.to_ms,
      }));
    },
    async addResultRecords(scope, records) {
      // Records without their result are never read: a search uses the local history only for
      // ranges that complete days or recorded results cover, and any record of those is in already.
      await writer.addRecords(scope, records);
    },
    async putResult(scope, result, records, now) {
      const row = {
        scope,
        result_key: result.key,
        filters: JSON.stringify(result.filters),
        from_ms: result.from,
        to_ms: result.to,
        records,
        created_at: now,
      };
      await db
        .insertInto('history_results')
        .values(row)
        .onConflict((oc) =>
          oc
            .columns(['scope', 'result_key'])
            .doUpdateSet({ from_ms: row.from_ms, to_ms: row.to_ms, records: row.records, created_at: now }),
        )
        .execute();
    },

    async resultScopes() {
      const rows = await db
        .selectFrom('history_results as r')
        .select((eb) => [
          'r.scope',
          eb.fn.min<number | string>('r.created_at').as('oldest_created'),
          eb.fn.min<number | string>('r.to_ms').as('oldest_to'),
          eb
            .selectFrom('history_days as d')
            .select((d) => d.fn.countAll<number | string>().as('n'))
            .whereRef('d.scope', '=', 'r.scope')
            .as('days'),
        ])
        .groupBy('r.scope')
        .execute();
      return rows.map((r) => ({
        scope: r.scope,
        oldestCreatedAt: Number(r.oldest_created),
        oldestTo: Number(r.oldest_to),
        days: Number(r.days ?? 0),
      }));
    },
    async forgetResults(scope) {
      // What says the results exist goes first: from then on nothing reads their records.
      await db.deleteFrom('history_results').where('scope', '=', scope).execute();
      await writer.deleteScope(scope);
      dayPacks.evict(scope);
      if (dialect === 'sqlite') await sql`pragma main.wal_checkpoint(TRUNCATE)`.execute(db);
    },

    reads: search.reads,
    record: search.record,
    records: search.records,
    count: search.count,
    page: search.page,
    slice: search.slice,
    async queueMissingPacks(scope) {
      const days = await dayPacks.missing(scope);
      for (const day of days) writer.buildPackWhenIdle(scope, day);
      return days.length;
    },
    settled: () => writer.idle(),
    warmUp: () => writer.warmUp(),
    size: search.size,
  };
}
