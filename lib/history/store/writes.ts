import 'server-only';
/**
 * Every write to the local history's data — records, their bodies in blocks, the text index, the
 * rollups Insights reads, the day packs — on one database handle, in the layout of migration
 * 0040-history-compact. They run wherever the history writer runs them (./writer.ts): on a thread
 * of their own with a connection of their own (the server's), or on the caller's (tests). The
 * store's other tables (settings, days, complete results, staged pages) are the store's own
 * (./history-store.ts), written by the server's thread.
 *
 * Records are added a transaction per call: records not held yet, their bodies, exactly those in
 * the rollups. A call is whole or not at all, and a record already held (from a complete result,
 * or read twice) is neither stored nor counted again, so calling again after a crash adds what is
 * missing and nothing twice. SQLite's text index takes them later, when the writer has nothing
 * else to do (indexPendingText; ./text-sqlite-writes.ts).
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
import { blocksOf, encodeBlock } from '../../db/migrations/body-blocks';
import { encodePack, PACK_NUMBER_COLUMNS, PACK_TEXT_COLUMNS } from './day-pack';
import type { Database, SqlDialect } from '../../db/schema';
import { stagedRecords } from './staged-page';
import { addToRollups, deleteRollups, deleteRollupsBefore, refreshDayFacets } from './rollups';
import { ensureScopeNumber, scopeNoSql } from './scopes';
import {
  addPendingText,
  deleteScopeText,
  deleteText,
  dropTextMonthsBefore,
  indexPendingText,
} from './text-sqlite-writes';

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

/** The record's columns this store keeps on its row: all but the day (derived) and the text (kept in the text tables). */
type RowColumn = Exclude<(typeof RECORD_COLUMNS)[number], 'day' | 'search_text'>;
const ROW_COLUMNS = RECORD_COLUMNS.filter((c): c is RowColumn => c !== 'day' && c !== 'search_text');

/**
 * Rows per INSERT: a whole upstream page of 100 in one statement, well under either dialect's
 * parameter limit (25 values each: 5,000 of SQLite's 32,766 and PostgreSQL's 65,535).
 */
const ROWS_PER_INSERT = 200;

/** trx_ids looked up per statement to learn which records are held already. */
const HELD_PER_LOOKUP = 500;

/** Records deleted per transaction when a scope's old days go (deleteBefore): a second or two of work. */
const DELETE_BATCH = 500;

function* chunks<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/** The table's order: received time, then trx_id. */
const inTableOrder = (a: HistoryRecordRow, b: HistoryRecordRow) =>
  a.received_ms - b.received_ms || (a.trx_id < b.trx_id ? -1 : a.trx_id > b.trx_id ? 1 : 0);

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

  const scopeNoOf = async (q: Q, scope: string): Promise<number | null> => {
    const row = await q.selectFrom('history_scopes').select('scope_no').where('scope', '=', scope).executeTakeFirst();
    return row ? Number(row.scope_no) : null;
  };

  /** The rows whose trx_id the scope does not hold yet, each once. */
  const notHeld = async (q: Q, scopeNo: number, rows: readonly HistoryRecordRow[]): Promise<HistoryRecordRow[]> => {
    const byTrx = new Map<string, HistoryRecordRow>();
    for (const row of rows) if (!byTrx.has(row.trx_id)) byTrx.set(row.trx_id, row);
    for (const batch of chunks([...byTrx.keys()], HELD_PER_LOOKUP)) {
      const held = await q
        .selectFrom('history_records')
        .select('trx_id')
        .where('scope_no', '=', scopeNoSql(scopeNo))
        .where('trx_id', 'in', batch)
        .execute();
      for (const h of held) byTrx.delete(h.trx_id);
    }
    return [...byTrx.values()];
  };

  /**
   * Stores the rows not held yet: their bodies in blocks of their day, their rows, their text
   * (SQLite: pending its index), and adds them to the rollups (their days' facets too, unless
   * `facets` is false: a day being built has its facets summed when it is finished). Answers the
   * ids stored.
   */
  const insertRecords = async (
    q: Q,
    scope: string,
    rows: readonly HistoryRecordRow[],
    facets: boolean,
  ): Promise<number[]> => {
    const scopeNo = await ensureScopeNumber(q, dialect, scope);
    const fresh = (await notHeld(q, scopeNo, rows)).sort(inTableOrder);
    if (fresh.length === 0) return [];
    const placed: Record<string, unknown>[] = [];
    for (const block of blocksOf(fresh, (r) => utcDayOf(r.received_ms))) {
      const stored = await q
        .insertInto('history_body_blocks')
        .values({
          scope_no: scopeNo,
          day: utcDayOf(block[0]!.received_ms),
          data: encodeBlock(block.map((r) => r.body)).data,
        })
        .returning('block_no')
        .executeTakeFirstOrThrow();
      block.forEach((row, pos) => {
        const value: Record<string, unknown> = { scope_no: scopeNo };
        for (const column of ROW_COLUMNS) value[column] = row[column];
        if (dialect === 'postgres') value.search_text = row.search_text;
        value.body_block = Number(stored.block_no);
        value.body_pos = pos;
        placed.push(value);
      });
    }
    const ids: number[] = [];
    const texts: { id: number; received_ms: number; search_text: string }[] = [];
    const textOf = new Map(fresh.map((r) => [r.trx_id, r.search_text]));
    const touched = new Set<string>();
    for (const batch of chunks(placed, ROWS_PER_INSERT)) {
      const values = batch as Insertable<Database['history_records']>[];
      // A record another writer stored meanwhile (PostgreSQL, several instances) is skipped: its body
      // stays in its block unread, and goes with its day.
      const { rows: stored } = await bulkInsert(q, 'history_records', values, () =>
        q
          .insertInto('history_records')
          .values(values)
          .onConflict((oc) => oc.columns(['scope_no', 'trx_id']).doNothing())
          .returning(['id', 'trx_id', 'received_ms']),
      );
      for (const r of stored) {
        ids.push(Number(r.id));
        touched.add(utcDayOf(Number(r.received_ms)));
        texts.push({ id: Number(r.id), received_ms: Number(r.received_ms), search_text: textOf.get(r.trx_id)! });
      }
    }
    if (ids.length === 0) return ids;
    if (dialect === 'sqlite') await addPendingText(q, scopeNo, texts);
    await addToRollups(q, dialect, scope, scopeNo, ids);
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
        const scopeNo = await scopeNoOf(trx, scope);
        if (scopeNo === null) return { records: 0 };
        const row = await trx
          .selectFrom('history_records')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('scope_no', '=', scopeNoSql(scopeNo))
          .where('received_ms', '>=', start)
          .where('received_ms', '<', start + DAY_MS)
          .executeTakeFirstOrThrow();
        return { records: Number(row.n) };
      });
    },
    async buildPack(scope, day) {
      const start = Date.parse(`${day}T00:00:00Z`);
      const scopeNo = await scopeNoOf(db, scope);
      const rows =
        scopeNo === null
          ? []
          : await db
              .selectFrom('history_records')
              .select(['id', ...PACK_TEXT_COLUMNS, ...PACK_NUMBER_COLUMNS])
              .where('scope_no', '=', scopeNoSql(scopeNo))
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
      return indexPendingText(db, historySchema, limit);
    },
    async deleteScope(scope) {
      const scopeNo = await scopeNoOf(db, scope);
      await db.transaction().execute(async (trx) => {
        if (scopeNo !== null) {
          await trx.deleteFrom('history_records').where('scope_no', '=', scopeNoSql(scopeNo)).execute();
          await trx.deleteFrom('history_body_blocks').where('scope_no', '=', scopeNoSql(scopeNo)).execute();
          if (dialect === 'sqlite') await deleteScopeText(trx, historySchema, scopeNo);
        }
        await deleteRollups(trx, scope);
        await trx.deleteFrom('history_day_packs').where('scope', '=', scope).execute();
      });
      // The log still holds the pages as they were written: emptied, so the sync is gone from disk.
      if (dialect === 'sqlite') await sql.raw(truncateHistoryLog(historySchema)).execute(db);
    },
    async deleteBefore(scope, day) {
      const cut = Date.parse(`${day}T00:00:00Z`);
      const scopeNo = await scopeNoOf(db, scope);
      await db.transaction().execute(async (trx) => {
        await deleteRollupsBefore(trx, dialect, scope, cut);
        await trx.deleteFrom('history_day_packs').where('scope', '=', scope).where('day', '<', day).execute();
        // Whole months of text before the cut's go at once.
        if (scopeNo !== null && dialect === 'sqlite') await dropTextMonthsBefore(trx, historySchema, scopeNo, cut);
      });
      if (scopeNo === null) return;
      // The records a batch at a time, each its own transaction: a start day moved back by months
      // (or a large result copied before it) is tens of thousands of records, each overwritten on
      // disk. In one statement the thread would be held for minutes, and a server told to stop
      // would wait for it. Stopped half-way, the next pass goes on.
      for (;;) {
        const rows = await db
          .selectFrom('history_records')
          .select(['id', 'received_ms'])
          .where('scope_no', '=', scopeNoSql(scopeNo))
          .where('received_ms', '<', cut)
          .limit(DELETE_BATCH)
          .execute();
        if (rows.length === 0) break;
        const ids = rows.map((r) => Number(r.id));
        await db.transaction().execute(async (trx) => {
          if (dialect === 'sqlite')
            await deleteText(
              trx,
              historySchema,
              scopeNo,
              rows.map((r) => ({ id: Number(r.id), received_ms: Number(r.received_ms) })),
            );
          await trx.deleteFrom('history_records').where(recordIdIn(dialect, ids)).execute();
        });
        await new Promise((resolve) => setImmediate(resolve));
      }
      // Their bodies: every block of a day before the cut (a block holds one day's records only).
      await db
        .deleteFrom('history_body_blocks')
        .where('scope_no', '=', scopeNoSql(scopeNo))
        .where('day', '<', day)
        .execute();
    },
  };
}
