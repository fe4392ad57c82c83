/**
 * Migration 0040-history-compact on both backends: a local history copied by the versions before
 * (tests/support/history-before-0040.ts) keeps answering after the upgrade — every record, its
 * JSON byte for byte, every free text, every page in both orders, the day packs and rollups kept,
 * one scope never seen from another — and, on SQLite, a start that stops half-way leaves the old
 * file as it was and the next start completes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator, sql, type Kysely } from 'kysely';
import { describe, expect, inject, it } from 'vitest';
import { historyRow, type HistoryRecordRow } from '../cdr/record-columns';
import { cdrSchema } from '../cdr/schema';
import { scopeOf } from '../history/scope';
import { sampleCdr } from '../upstream/test-fixtures';
import { openStore } from '../root/open-store';
import { createDatabase } from '@/tests/support/postgres';
import { packBefore0040, storeBefore0040 } from '@/tests/support/history-before-0040';
import { checkTextIndex } from '@/tests/support/text-index';
import { historyFileOf } from './history-file';
import { migrationsFor } from './migrations';
import { historyCompactMigration } from './migrations/0040-history-compact';
import { openDatabase } from './open-database';
import type { Database, SqlDialect } from './schema';

const A = scopeOf({ apiKey: 'demo', enterpriseId: null }).key;
const B = scopeOf({ apiKey: 'fuji', enterpriseId: 'ent-fuji' }).key;
const DAY = '2026-11-01';
const T0 = Date.UTC(2026, 10, 1);
const TEXTS = [
  'お荷物の配達予定のお知らせ',
  'ご予約ありがとうございました。',
  'Your code is 4821',
  'ORDER ord-2026-0001 shipped',
];

function record(i: number, over: Record<string, unknown> = {}): HistoryRecordRow {
  const at = new Date(T0 + i * 7 * 60_000 + (i % 3)).toISOString().replace('Z', '+0000');
  return historyRow(
    cdrSchema.parse(
      sampleCdr({
        trx_id: `${i}`.padStart(32, 'a'),
        date_received: at,
        to_address: `8190${String(10_000_000 + i)}`,
        message_body: TEXTS[i % TEXTS.length],
        ...over,
      }),
    ),
  )!;
}

/** 200 records of A on one day (one of them at the next day's first instant), 5 of B. */
const ROWS_A = [
  ...Array.from({ length: 199 }, (_, i) => record(i)),
  record(500, { date_received: '2026-11-02T00:00:00.000+0000' }),
];
const ROWS_B = Array.from({ length: 5 }, (_, i) =>
  record(1000 + i, { message_body: 'B だけの配達', date_received: `2026-11-01T12:0${i}:00.000+0000` }),
);

async function migrateUpTo(db: Kysely<Database>, dialect: SqlDialect, last: string): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrationsFor(dialect) },
    allowUnorderedMigrations: true,
  });
  expect((await migrator.migrateTo(last)).error).toBeUndefined();
}

/** The store as the version before left it: A's day complete with its pack, B's records, three texts not indexed yet. */
async function storedBefore(where: { databaseUrl?: string; dataDir: string }, dialect: SqlDialect) {
  const before = await openDatabase(where);
  try {
    await migrateUpTo(before.db, dialect, '0023-export-rows-by-time');
    await storeBefore0040(before.db, dialect, A, ROWS_A, { unindexed: 3 });
    await storeBefore0040(before.db, dialect, B, ROWS_B);
    await packBefore0040(before.db, A, DAY);
    await before.db
      .insertInto('history_days')
      .values({
        scope: A,
        day: DAY,
        state: 'complete',
        progress: '{}',
        records: 199,
        calls: 2,
        updated_at: 0,
        completed_at: 0,
      })
      .execute();
    const ids = await sql<{ trx_id: string; id: number }>`select trx_id, id from history_records`.execute(before.db);
    const pack = await before.db.selectFrom('history_day_packs').select('version').executeTakeFirstOrThrow();
    return { ids: new Map(ids.rows.map((r) => [r.trx_id, Number(r.id)])), packVersion: pack.version };
  } finally {
    await before.close();
  }
}

const inOrder = (rows: readonly HistoryRecordRow[]) =>
  [...rows].sort((a, b) => a.received_ms - b.received_ms || (a.trx_id < b.trx_id ? -1 : 1));

describe.each(['sqlite', 'postgres'] as const)('migration 0040-history-compact on %s', (dialect) => {
  it('keeps a local history copied before answering: records byte for byte, free text, pages, packs and rollups', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sms-compact-'));
    const database = dialect === 'postgres' ? await createDatabase(inject('postgresAdminUrl'), 'compact') : null;
    try {
      const before = await storedBefore({ databaseUrl: database?.url, dataDir: dir }, dialect);
      const store = await openStore(database ? { DATABASE_URL: database.url, dataDir: dir } : { dataDir: dir });
      try {
        const day = { from: T0, to: T0 + 86_400_000 };
        const search = (scope: string, over: Record<string, unknown> = {}) => ({
          scope,
          ranges: [day],
          where: [],
          order: 'asc' as const,
          ...over,
        });
        // Every record, in the table's order both ways, each the JSON it was stored as.
        const all = inOrder(ROWS_A);
        expect(await store.history.count(search(A))).toBe(200);
        expect(await store.history.page(search(A), 0, 500)).toEqual(all.map((r) => r.body));
        expect(await store.history.page(search(A, { order: 'desc' }), 0, 500)).toEqual(
          [...all].reverse().map((r) => r.body),
        );
        for (const r of [ROWS_A[0]!, ROWS_A[198]!, ROWS_B[2]!])
          expect(await store.history.record(r === ROWS_B[2] ? B : A, r.trx_id)).toBe(r.body);
        // The same ids: the day pack built before names them, and is kept.
        const after = await sql<{ trx_id: string; id: number }>`select trx_id, id from history_records`.execute(
          store.db,
        );
        expect(new Map(after.rows.map((r) => [r.trx_id, Number(r.id)]))).toEqual(before.ids);
        const pack = await store.db.selectFrom('history_day_packs').select('version').executeTakeFirstOrThrow();
        expect(pack.version).toBe(before.packVersion);
        // Free text, the records not indexed before included; one scope's text not found from another.
        const expected = (needle: string) => all.filter((r) => r.search_text.includes(needle)).map((r) => r.trx_id);
        for (const text of ['配達', 'お知らせ', 'ord-2026', 'code 4821', 'ご予']) {
          const found = (await store.history.page(search(A, { text }), 0, 500)).map(
            (b) => (JSON.parse(b) as { trx_id: string }).trx_id,
          );
          expect(found, text).toEqual(expected(text));
          expect(await store.history.count(search(A, { text }))).toBe(found.length);
        }
        expect(await store.history.count(search(B, { text: 'だけ' }))).toBe(5);
        expect(await store.history.count(search(A, { text: 'だけ' }))).toBe(0);
        // A filter the rollups count, and one SQL answers (a number).
        expect(await store.history.count(search(A, { where: [{ column: 'status', op: '=', value: 'DELIVRD' }] }))).toBe(
          all.filter((r) => r.status === 'DELIVRD').length,
        );
        expect(
          await store.history.count(
            search(A, { where: [{ column: 'to_address', op: '=', value: ROWS_A[5]!.to_address }] }),
          ),
        ).toBe(1);
        if (dialect === 'sqlite') {
          await store.history.settled();
          await checkTextIndex(store.db);
          const { rows } = await sql<{ n: number }>`select count(*) as n from history.sqlite_master
            where name in ('history_fts', 'history_bodies', 'history_text_indexed')`.execute(store.db);
          expect(Number(rows[0]!.n)).toBe(0);
        }
        // Deleting A leaves B whole.
        await store.history.deleteScope(A);
        expect(await store.history.count(search(A))).toBe(0);
        expect(await store.history.count(search(B, { text: '配達' }))).toBe(5);
      } finally {
        await store.close();
      }
    } finally {
      await database?.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  if (dialect === 'sqlite') {
    it('leaves the old history file as it was when a start stops half-way, and rebuilds it at the next start', async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sms-compact-stop-'));
      try {
        await storedBefore({ dataDir: dir }, 'sqlite');
        const opened = await openDatabase({ dataDir: dir });
        try {
          // The process stops (here: fails) while it copies the records.
          let blocks = 0;
          const stops = opened.db.withPlugin({
            transformQuery(args) {
              const text = JSON.stringify(args.node);
              if (text.includes('history_next.history_body_blocks') && ++blocks === 3)
                throw new Error('the process stopped');
              return args.node;
            },
            transformResult: async (args) => args.result,
          });
          await expect(historyCompactMigration('sqlite').up(stops as never)).rejects.toThrow('the process stopped');
          const { rows } = await sql<{ n: number }>`select count(*) as n from history.history_records`.execute(
            opened.db,
          );
          expect(Number(rows[0]!.n)).toBe(205);
          const old = await sql<{
            n: number;
          }>`select count(*) as n from pragma_table_info('history_records', 'history') where name = 'scope'`.execute(
            opened.db,
          );
          expect(Number(old.rows[0]!.n)).toBe(1);
        } finally {
          await opened.close();
        }
        const store = await openStore({ dataDir: dir });
        try {
          expect(
            await store.history.count({
              scope: A,
              ranges: [{ from: T0, to: T0 + 86_400_000 }],
              where: [],
              order: 'asc',
            }),
          ).toBe(200);
          expect(fs.existsSync(`${historyFileOf(dir)}.next`)).toBe(false);
        } finally {
          await store.close();
        }
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }, 60_000);
  }
});
