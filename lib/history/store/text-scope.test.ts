/**
 * Free text costs work in proportion to one account's matching records, on a thread that is not
 * the one answering everybody (issue 38):
 *  - one account's search reads that account's text index only: on SQLite its tables per month
 *    (the others' can be gone and it still answers), on PostgreSQL its own trigram index (the plan
 *    names it, no other account's);
 *  - on SQLite the index is read on the text thread: no MATCH runs on the server's connection,
 *    and the server's thread keeps answering meanwhile;
 *  - a long lookup is cut into months taken in turns: a short one asked after it is answered first.
 */
import { sql, type Kysely, type KyselyPlugin } from 'kysely';
import type { Database } from '../../db/schema';
import { describe, expect, it } from 'vitest';
import type { Cdr } from '../../cdr/schema';
import { historyRow } from '../../cdr/record-columns';
import { forEachBackend } from '@/tests/support/backends';
import { scopeOf } from '../scope';
import { createHistoryStore } from './history-store';
import { createDayPackStore } from './day-pack-store';
import { createHistoryWriter, inlineBackend } from './writer';
import { createHistoryWrites } from './writes';
import { sqliteTextIndex, threadTextLookup } from './text-thread';
import { textIndexTables } from '@/tests/support/text-index';
import { RECORD_INDEXES } from '../../db/migrations/history-compact-schema';

const A = scopeOf({ apiKey: 'key-a', enterpriseId: null }).key;
const B = scopeOf({ apiKey: 'key-b', enterpriseId: null }).key;
const T0 = Date.UTC(2026, 0, 1);
const DAY_MS = 86_400_000;

/** `n` records a day from `firstDay` (days after 2026-01-01), every one holding `text`. */
function records(prefix: string, days: number, perDay: number, text: string, firstDay = 0) {
  return Array.from({ length: days * perDay }, (_, i) => {
    const at = T0 + (firstDay + Math.floor(i / perDay)) * DAY_MS + (i % perDay) * 1000;
    const cdr = {
      trx_id: `${prefix}${String(i).padStart(31 - prefix.length, '0')}`.padEnd(32, '0'),
      date_received: new Date(at).toISOString().replace('Z', '+0000'),
      to_address: `81901${String(i).padStart(7, '0')}`,
      delivery_status: 'DELIVRD',
      price_currency: 'JPY',
      message_body: `${text} ${i}`,
    } as unknown as Cdr;
    return historyRow(cdr)!;
  });
}

/** The history file the store's connection has attached (the text thread opens its own connection to it). */
async function historyFile(db: Kysely<Database>): Promise<string> {
  const { rows } = await sql<{ file: string }>`select file from pragma_database_list where name = 'history'`.execute(
    db,
  );
  return rows[0]!.file;
}

/** Carries a plan out of a transaction rolled back. */
class PlanOf extends Error {
  constructor(readonly plan: string) {
    super('rolled back');
  }
}

const search = (scope: string, text: string, days = 400) => ({
  scope,
  ranges: [{ from: T0, to: T0 + days * DAY_MS }],
  where: [],
  order: 'desc' as const,
  text,
});

forEachBackend((open, dialect) => {
  describe('free text of one account', () => {
    it('reads that account’s own text index only', async () => {
      const store = await open();
      await store.history.addResultRecords(A, records('a', 3, 700, 'お荷物の配達'));
      await store.history.addResultRecords(B, records('b', 3, 1000, 'お荷物の配達'));
      await store.history.settled();
      expect(await store.history.count(search(A, '配達'))).toBe(2100);
      if (dialect === 'sqlite') {
        // B's text index gone: A's search does not notice, B's finds nothing.
        const numberOf = async (scope: string) =>
          Number(
            (
              await store.db
                .selectFrom('history_scopes')
                .select('scope_no')
                .where('scope', '=', scope)
                .executeTakeFirstOrThrow()
            ).scope_no,
          );
        const b = await numberOf(B);
        for (const table of (await textIndexTables(store.db)).filter((t) => t.startsWith(`history_text_${b}_`)))
          await sql`drop table ${sql.raw(`history.${table}`)}`.execute(store.db);
        await sql`delete from history.history_text_months where scope_no = ${b}`.execute(store.db);
        expect(await store.history.count(search(A, '配達'))).toBe(2100);
        expect(await store.history.count(search(B, '配達'))).toBe(0);
      } else {
        // The plan of A's free text names A's own trigram index, no other.
        const [a, b] = await Promise.all(
          [A, B].map(async (scope) =>
            Number(
              (
                await store.db
                  .selectFrom('history_scopes')
                  .select('scope_no')
                  .where('scope', '=', scope)
                  .executeTakeFirstOrThrow()
              ).scope_no,
            ),
          ),
        );
        // Each account's own index (partial on its number), and none of every account's.
        const { rows: indexes } = await sql<{
          indexname: string;
          indexdef: string;
        }>`select indexname, indexdef from pg_indexes
          where tablename = 'history_records' and indexdef like '%gin_trgm_ops%'`.execute(store.db);
        expect(indexes.map((i) => [i.indexname, /WHERE \(scope_no = (\d+)\)/.exec(i.indexdef)?.[1]]).sort()).toEqual(
          [a, b].map((n) => [`history_records_text_${n}`, String(n)]).sort(),
        );
        // And the one A's search can use: with the other ways of reading the table set aside
        // (a table this small is cheaper to read through the scope's own btree), A's free text
        // is read through A's trigram index, B's never.
        const plan = await store.db
          .transaction()
          .execute(async (trx) => {
            for (const index of RECORD_INDEXES) await sql`drop index ${sql.raw(index.name)}`.execute(trx);
            await sql`alter table history_records drop constraint history_records_scope_trx`.execute(trx);
            await sql`analyze history_records`.execute(trx);
            await sql`set local enable_seqscan = off`.execute(trx);
            const { rows } = await sql<{ 'QUERY PLAN': string }>`explain select id from history_records
              where scope_no = ${sql.lit(a)} and search_text ilike '%819010001234%'`.execute(trx);
            // Rolled back: the indexes stay.
            throw new PlanOf(rows.map((r) => r['QUERY PLAN']).join('\n'));
          })
          .catch((err: unknown) => {
            if (err instanceof PlanOf) return err.plan;
            throw err;
          });
        expect(plan).toContain(`history_records_text_${a}`);
        expect(plan).not.toContain(`history_records_text_${b}`);
      }
    });

    if (dialect === 'sqlite') {
      it('is read on the text thread: no MATCH on the server’s connection, which keeps answering meanwhile', async () => {
        const store = await open();
        // A year of A, a record a minute holding the text, through the writes (no thread: quicker here).
        const writes = createHistoryWrites(store.db, dialect);
        const rows = records('a', 120, 1_000, 'ご注文ありがとうございます');
        for (let i = 0; i < rows.length; i += 5_000) await writes.addRecords(A, rows.slice(i, i + 5_000));
        while ((await writes.indexPendingText(50_000)) > 0);

        const statements: string[] = [];
        const watching: KyselyPlugin = {
          transformQuery: (args) => {
            statements.push(JSON.stringify(args.node));
            return args.node;
          },
          transformResult: async (args) => args.result,
        };
        const db = store.db.withPlugin(watching);
        const lookup = threadTextLookup(await historyFile(store.db));
        try {
          const writer = createHistoryWriter(inlineBackend(createHistoryWrites(db, dialect)));
          const history = createHistoryStore(
            db,
            dialect,
            writer,
            createDayPackStore(db, () => undefined),
            {
              text: sqliteTextIndex(lookup),
            },
          );
          let longest = 0;
          let last = performance.now();
          const ticking = setInterval(() => {
            const now = performance.now();
            longest = Math.max(longest, now - last);
            last = now;
          }, 2);
          const started = performance.now();
          const found = await history.count(search(A, 'ご注文'));
          const took = performance.now() - started;
          clearInterval(ticking);
          expect(found).toBe(120_000);
          expect(statements.filter((s) => /\bmatch\b/i.test(s))).toEqual([]);
          // The server's thread answered throughout: no turn held for long (the lookup itself took longer).
          expect(longest).toBeLessThan(Math.max(60, took / 2));
        } finally {
          await lookup.close();
        }
      }, 120_000);

      it('keeps what a month’s lookup found for the next one, and looks again once the month changed', async () => {
        const store = await open();
        const writes = createHistoryWrites(store.db, dialect);
        await writes.addRecords(A, records('a', 2, 30, 'お荷物の配達'));
        while ((await writes.indexPendingText(100_000)) > 0);
        const no = Number(
          (
            await store.db
              .selectFrom('history_scopes')
              .select('scope_no')
              .where('scope', '=', A)
              .executeTakeFirstOrThrow()
          ).scope_no,
        );
        const lookup = threadTextLookup(await historyFile(store.db));
        try {
          expect((await lookup.lookup(no, [202601], ['配達'])).length).toBe(60);
          // Asked again: the same finds.
          expect((await lookup.lookup(no, [202601], ['配達'])).length).toBe(60);
          // A record more (pending, then indexed), and two fewer: every lookup sees the month as it is.
          await writes.addRecords(A, records('z', 1, 1, 'お荷物の配達', 5));
          expect((await lookup.lookup(no, [202601], ['配達'])).length).toBe(61);
          while ((await writes.indexPendingText(100_000)) > 0);
          expect((await lookup.lookup(no, [202601], ['配達'])).length).toBe(61);
          await writes.deleteBefore(A, '2026-01-02');
          expect((await lookup.lookup(no, [202601], ['配達'])).length).toBe(31);
        } finally {
          await lookup.close();
        }
      });

      it('takes the months of the lookups waiting in turns: a short one asked after a long one is answered first', async () => {
        const store = await open();
        const writes = createHistoryWrites(store.db, dialect);
        // A: twelve months of records; B: one day.
        await writes.addRecords(A, records('a', 360, 200, 'お荷物の配達'));
        await writes.addRecords(B, records('b', 1, 50, 'お荷物の配達'));
        while ((await writes.indexPendingText(100_000)) > 0);
        const numberOf = async (scope: string) =>
          Number(
            (
              await store.db
                .selectFrom('history_scopes')
                .select('scope_no')
                .where('scope', '=', scope)
                .executeTakeFirstOrThrow()
            ).scope_no,
          );
        const lookup = threadTextLookup(await historyFile(store.db));
        try {
          const months = Array.from({ length: 12 }, (_, m) => 202601 + m);
          const done: string[] = [];
          const long = lookup.lookup(await numberOf(A), months, ['配達']).then((ids) => {
            done.push('long');
            return ids;
          });
          const short = lookup.lookup(await numberOf(B), [202601], ['配達']).then((ids) => {
            done.push('short');
            return ids;
          });
          const [all, few] = await Promise.all([long, short]);
          expect([all.length, few.length]).toEqual([72_000, 50]);
          expect(done).toEqual(['short', 'long']);
        } finally {
          await lookup.close();
        }
      }, 120_000);
    }
  });
});
