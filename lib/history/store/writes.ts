import 'server-only';
/**
 * Every write to the local history's data — records, their bodies, the text index, the rollups
 * Insights reads, the day packs — on one database handle. They run wherever the history writer
 * runs them (./writer.ts): on a thread of their own with a connection of their own (the
 * server's), or on the caller's (tests). The store's other tables (settings, days, complete
 * results, staged pages) are the store's own (./history-store.ts), written by the server's thread.
 *
 * Records are added a transaction per call: records not held yet, their bodies, exactly those in
 * the rollups. A call is whole or not at all, and a record already held (from a complete result,
 * or read twice) is neither stored nor counted again, so calling again after a crash adds what is
 * missing and nothing twice. SQLite's text index takes them later, when the writer has nothing
 * else to do (indexPendingText; migration 0017-text-index-when-idle).
 */
import { randomUUID } from 'node:crypto';
import { sql, type Insertable, type Kysely, type Transaction } from 'kysely';
import { historyRow, RECORD_COLUMNS, type HistoryRecordRow } from '../../cdr/record-columns';
import { DAY_MS } from '../../time/units';
import { utcDayOf } from '../../time/zone-days';
import { bulkInsert } from '../../db/bulk-insert';
import { recordIdIn } from '../../db/record-ids';
import { truncateHistoryLog } from '../../db/history-file';
import { HISTORY_SCHEMA } from '../../db/migrations/history-schema';
import { encodePack, PACK_NUMBER_COLUMNS, PACK_TEXT_COLUMNS } from './day-pack';
import type { Database, SqlDialect } from '../../db/schema';
import { storedSearchText } from '../../db/migrations/search-text';
import { stagedRecords } from './staged-page';
import { addToRollups, deleteRollups, deleteRollupsBefore, refreshDayFacets } from './rollups';

export interface HistoryWrites {
  /** Stores the records not held yet (see above); answers how many were new. */
  addRecords(scope: string, rows: readonly HistoryRecordRow[]): Promise<number>;
  /**
   * Stores the records of UTC day `day`'s staged upstream pages up to `throughSeq`
   * (history_staged_pages, ./staged-page.ts): those of the day and those received at its end
   * instant, the next day's first (see lib/history/sync-day-progress.ts). Read here, not sent: a slice
   * of pages is megabytes of text the server's thread need not read nor copy. Answers how many
   * records were new.
   */
  addStagedPages(scope: string, day: string, throughSeq: number): Promise<number>;
  /** The UTC day's records are all in: its day facets summed again (with latencies); answers its record count. */
  finishDay(scope: string, day: string): Promise<{ records: number }>;
  /** Encodes the UTC day's records as its day pack (./day-pack.ts) and stores it. */
  buildPack(scope: string, day: string): Promise<void>;
  /**
   * Puts up to `limit` records not in SQLite's text index yet into it, oldest first; answers how
   * many (0: the index holds every record; always 0 on PostgreSQL, whose index keeps itself).
   */
  indexPendingText(limit: number): Promise<number>;
  /** Forgets the scope's data: records, bodies, text, rollups, packs. */
  deleteScope(scope: string): Promise<void>;
  /** Forgets the scope's data before UTC day `day`. */
  deleteBefore(scope: string, day: string): Promise<void>;
}

/**
 * Rows per INSERT: a whole upstream page in one statement, well under either dialect's parameter
 * limit (23 values each: 4,600 of SQLite's 32,766 and PostgreSQL's 65,535).
 */
const ROWS_PER_INSERT = 200;

/** Records deleted per transaction when a scope's old days go (deleteBefore): a second or two of work. */
const DELETE_BATCH = 500;

function* chunks<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/**
 * `historySchema`: the history file's schema on `db` (SQLite): 'main' on the writer's own connection,
 * HISTORY_SCHEMA (the default) on the server's, where it is attached.
 */
export function createHistoryWrites(
  db: Kysely<Database>,
  dialect: SqlDialect,
  options: { historySchema?: string } = {},
): HistoryWrites {
  const historySchema = options.historySchema ?? HISTORY_SCHEMA;
  type Q = Kysely<Database> | Transaction<Database>;

  /**
   * Stores the rows not held yet with their bodies, and adds those to the rollups (their days'
   * facets too, unless `facets` is false: a day being built has its facets summed when it is
   * finished). Answers the ids stored.
   */
  const insertRecords = async (
    q: Q,
    scope: string,
    rows: readonly HistoryRecordRow[],
    facets: boolean,
  ): Promise<number[]> => {
    const ids: number[] = [];
    const touched = new Set<string>();
    for (const batch of chunks(rows, ROWS_PER_INSERT)) {
      const values = batch.map((row) => {
        const value: Record<string, unknown> = { scope };
        for (const column of RECORD_COLUMNS)
          value[column] = column === 'search_text' ? storedSearchText(row.search_text, dialect) : row[column];
        return value as Insertable<Database['history_records']>;
      });
      const { rows: stored } = await bulkInsert(q, 'history_records', values, () =>
        q
          .insertInto('history_records')
          .values(values)
          .onConflict((oc) => oc.columns(['scope', 'trx_id']).doNothing())
          .returning(['id', 'trx_id', 'received_ms']),
      );
      if (stored.length === 0) continue;
      const bodies = new Map(batch.map((r) => [r.trx_id, r.body]));
      const bodyRows = stored.map((r) => ({ id: Number(r.id), body: bodies.get(r.trx_id)! }));
      await bulkInsert(q, 'history_bodies', bodyRows, () => q.insertInto('history_bodies').values(bodyRows));
      for (const r of stored) {
        ids.push(Number(r.id));
        touched.add(utcDayOf(Number(r.received_ms)));
      }
    }
    if (ids.length === 0) return ids;
    await addToRollups(q, dialect, scope, ids);
    if (facets) for (const day of touched) await refreshDayFacets(q, dialect, scope, Date.parse(`${day}T00:00:00Z`));
    // A day whose records changed has its pack built again (a settled day should not change; a
    // record of a complete result can land in a complete day).
    await q
      .deleteFrom('history_day_packs')
      .where('scope', '=', scope)
      .where('day', 'in', [...touched])
      .execute();
    return ids;
  };

  const addRecords = async (scope: string, rows: readonly HistoryRecordRow[], facets = true): Promise<number> => {
    if (rows.length === 0) return 0;
    return db.transaction().execute(async (trx) => (await insertRecords(trx, scope, rows, facets)).length);
  };

  return {
    addRecords: (scope, rows) => addRecords(scope, rows),
    async addStagedPages(scope, day, throughSeq) {
      const start = Date.parse(`${day}T00:00:00Z`);
      const pages = await db
        .selectFrom('history_staged_pages')
        .select('records')
        .where('scope', '=', scope)
        .where('day', '=', day)
        .where('seq', '<=', throughSeq)
        .orderBy('seq')
        .execute();
      const rows: HistoryRecordRow[] = [];
      for (const { records } of pages) {
        for (const { cdr, text } of stagedRecords(records)) {
          const row = historyRow(cdr, text);
          // The day's records, and those of its end instant (the next day's first) read with them.
          if (row && row.received_ms >= start && row.received_ms <= start + DAY_MS) rows.push(row);
        }
      }
      // The day's facets are summed when it is finished (finishDay), not slice by slice.
      return addRecords(scope, rows, false);
    },
    async finishDay(scope, day) {
      const start = Date.parse(`${day}T00:00:00Z`);
      return db.transaction().execute(async (trx) => {
        await refreshDayFacets(trx, dialect, scope, start);
        const row = await trx
          .selectFrom('history_records')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('scope', '=', scope)
          .where('received_ms', '>=', start)
          .where('received_ms', '<', start + DAY_MS)
          .executeTakeFirstOrThrow();
        return { records: Number(row.n) };
      });
    },
    async buildPack(scope, day) {
      const start = Date.parse(`${day}T00:00:00Z`);
      const rows = await db
        .selectFrom('history_records')
        .select(['id', ...PACK_TEXT_COLUMNS, ...PACK_NUMBER_COLUMNS])
        .where('scope', '=', scope)
        .where('received_ms', '>=', start)
        .where('received_ms', '<', start + DAY_MS)
        .orderBy('received_ms')
        .orderBy('trx_id')
        .execute();
      const pack = encodePack(rows);
      const row = { scope, day, version: randomUUID(), records: rows.length, built_at: Date.now(), pack };
      await db
        .insertInto('history_day_packs')
        .values(row)
        .onConflict((oc) =>
          oc
            .columns(['scope', 'day'])
            .doUpdateSet({ version: row.version, records: row.records, built_at: row.built_at, pack }),
        )
        .execute();
    },
    async indexPendingText(limit) {
      if (dialect !== 'sqlite') return 0;
      return db.transaction().execute(async (trx) => {
        const { rows } = await sql<{ upto: number; last: number | null; n: number }>`
            select i.upto, max(r.id) as last, count(r.id) as n from history_text_indexed i
            left join (select id from history_records where id > (select upto from history_text_indexed) order by id limit ${limit}) r on true`.execute(
          trx,
        );
        const { upto, last, n } = rows[0]!;
        if (!last) return 0;
        // One statement however many: FTS5 writes what it holds to a new segment of the index
        // whenever another statement starts in the transaction.
        await sql`insert into history_fts(rowid, search_text) select id, search_text from history_records where id > ${upto} and id <= ${last}`.execute(
          trx,
        );
        await sql`update history_text_indexed set upto = ${last}`.execute(trx);
        return Number(n);
      });
    },
    async deleteScope(scope) {
      await db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('history_bodies')
          .where('id', 'in', trx.selectFrom('history_records').select('id').where('scope', '=', scope))
          .execute();
        await trx.deleteFrom('history_records').where('scope', '=', scope).execute();
        await deleteRollups(trx, scope);
        await trx.deleteFrom('history_day_packs').where('scope', '=', scope).execute();
      });
      // The log still holds the pages as they were written: emptied, so the copy is gone from disk.
      if (dialect === 'sqlite') await sql.raw(truncateHistoryLog(historySchema)).execute(db);
    },
    async deleteBefore(scope, day) {
      const cut = Date.parse(`${day}T00:00:00Z`);
      await db.transaction().execute(async (trx) => {
        await deleteRollupsBefore(trx, dialect, scope, cut);
        await trx.deleteFrom('history_day_packs').where('scope', '=', scope).where('day', '<', day).execute();
      });
      // The records a batch at a time, each its own transaction: a start day moved back by months
      // (or a large result copied before it) is tens of thousands of records, each overwritten on
      // disk and taken out of the text index. In one statement the thread would be held for
      // minutes, and a server told to stop would wait for it. Stopped half-way, the next pass goes on.
      for (;;) {
        const rows = await db
          .selectFrom('history_records')
          .select('id')
          .where('scope', '=', scope)
          .where('received_ms', '<', cut)
          .limit(DELETE_BATCH)
          .execute();
        if (rows.length === 0) return;
        const ids = rows.map((r) => Number(r.id));
        await db.transaction().execute(async (trx) => {
          await trx.deleteFrom('history_bodies').where('id', 'in', ids).execute();
          await trx.deleteFrom('history_records').where(recordIdIn(dialect, ids)).execute();
        });
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
  };
}
