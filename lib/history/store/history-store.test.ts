/**
 * The local history's store, the same contract on SQLite and PostgreSQL: a page stored twice is
 * kept once, every search (filters, free text in Japanese, last digits, price, latency, any order
 * with its tie rule) finds what a person would expect, scopes never see each other, and deleting a
 * copy leaves nothing a search could find.
 */
import { describe, expect, it } from 'vitest';
import type { Cdr } from '../../cdr/schema';
import { historyRow } from '../../cdr/record-columns';
import { localSearchOf } from '../local-query';
import { scopeOf } from '../scope';
import { parseQuery, type TransactionsQuery } from '../../query/query';
import { forEachBackend } from '@/tests/support/backends';
import { checkTextIndex } from '@/tests/support/text-index';
import type { Condition } from './history-search';
import { createHistoryStore, type HistoryDay, type HistoryRecordRow, type HistoryStore } from './history-store';
import { createDayPackStore, type DayPackStore } from './day-pack-store';
import { createHistoryWriter, inlineBackend } from './writer';
import { createHistoryWrites } from './writes';

const DAY = '2026-10-01';
const T0 = Date.UTC(2026, 9, 1, 0, 0, 0);
const A = scopeOf({ apiKey: 'key-a', enterpriseId: null }).key;
const B = scopeOf({ apiKey: 'key-b', enterpriseId: 'ent-2' }).key;

function iso(ms: number): string {
  return new Date(ms).toISOString().replace('Z', '+0000');
}

/** A record as the upstream sends it, with what the test varies. */
function cdr(n: number, over: Partial<Record<string, unknown>> = {}): Cdr {
  const received = T0 + n * 60_000;
  return {
    trx_id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    date_received: iso(received),
    date_submitted_to_mno: iso(received + 1000),
    date_delivered: iso(received + 1000 + n * 1000),
    to_address: `8190${String(10_000_000 + n).slice(-8)}`,
    from_address: n % 2 === 0 ? 'SAKURA' : 'FUJI',
    delivery_status: n % 3 === 0 ? 'UNDELIV' : 'DELIVRD',
    network_code: '44010',
    network_name: 'NTT docomo',
    api_key: 'key-a',
    api_key_name: 'Main',
    ref: `order-${n}`,
    enterprise_id: 'ent-1',
    delivery_method: 'API',
    dlr_error_code: n % 3 === 0 ? '001' : '000',
    how_many_message_parts: (n % 2) + 1,
    price: `${(n % 4) + 3}.30000000`,
    price_currency: 'JPY',
    message_body: n === 7 ? 'お荷物の配達予定のお知らせ' : `Your code is ${1000 + n}`,
    ...over,
  } as unknown as Cdr;
}

const rows = (cdrs: Cdr[]) => cdrs.map((c) => historyRow(c)!);

function day(records = 0): HistoryDay {
  return { day: DAY, state: 'syncing', progress: { page: 1 }, records, calls: 1, updatedAt: T0, completedAt: null };
}

function q(params: Record<string, string>): TransactionsQuery {
  const r = parseQuery({ 'date-from': '2026-10-01 00:00:00', 'date-to': '2026-10-02 00:00:00', ...params });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.query;
}

/** trx_id numbers (the last digits) a search finds, in its order. */
async function find(store: HistoryStore, scope: string, params: Record<string, string>): Promise<number[]> {
  const query = q(params);
  const search = localSearchOf(scope, query, [{ from: query.from.getTime(), to: query.to.getTime() }]);
  const bodies = await store.page(search, 0, 1000);
  expect(await store.count(search)).toBe(bodies.length);
  // The table's read (count and page together) agrees, at the start, in the middle and past the end.
  expect(await store.slice(search, 0, 1000)).toEqual({ total: bodies.length, bodies });
  const middle = Math.floor(bodies.length / 2);
  expect(await store.slice(search, middle, 3)).toEqual({
    total: bodies.length,
    bodies: bodies.slice(middle, middle + 3),
  });
  expect(await store.slice(search, bodies.length + 5, 3)).toEqual({ total: bodies.length, bodies: [] });
  return bodies.map((b) => Number((JSON.parse(b) as Cdr).trx_id.slice(-12)));
}

const TWENTY = Array.from({ length: 20 }, (_, i) => cdr(i + 1));

async function seeded(open: () => Promise<{ history: HistoryStore }>): Promise<HistoryStore> {
  const { history } = await open();
  await history.commitDayPage(A, day(), rows(TWENTY.slice(0, 10)), []);
  await history.commitDayPage(A, day(10), rows(TWENTY.slice(10)), []);
  return history;
}

forEachBackend((open, dialect) => {
  describe('the local history store', () => {
    it('keeps a page stored twice once, and counts the day’s records once', async () => {
      const history = await seeded(open);
      const d = { ...day(20), state: 'complete' as const, completedAt: T0 };
      // The same page again (a restart that re-read it): nothing new.
      await history.commitDayPage(A, d, rows(TWENTY.slice(10)), []);
      expect((await history.getDay(A, DAY))?.records).toBe(20);
      expect(await history.completeDays(A, '2026-09-30', '2026-10-02')).toEqual([DAY]);
      expect((await history.size(A)).records).toBe(20);
    });

    it('answers the upstream’s filters and its order, received time then trx_id on a tie', async () => {
      const history = await seeded(open);
      // Two records received at the same instant: the lower trx_id comes first in ascending order.
      const tie = [cdr(30, { date_received: iso(T0 + 5 * 60_000) }), cdr(31, { date_received: iso(T0 + 5 * 60_000) })];
      await history.commitDayPage(A, day(20), rows(tie), []);
      const asc = await find(history, A, { 'sort-order': 'asc' });
      expect(asc.slice(3, 7)).toEqual([4, 5, 30, 31]);
      // Newest first, the upstream's order reversed exactly: the higher trx_id first on a tie.
      expect((await find(history, A, { 'sort-order': 'desc' })).slice(-7, -3)).toEqual([31, 30, 5, 4]);
      expect(await find(history, A, { 'sort-order': 'desc', status: 'UNDELIV', oa: 'SAKURA' })).toEqual([
        18, 12, 6, 30,
      ]);
    });

    it('finds free text as a case-insensitive substring, Japanese included, and short text too', async () => {
      const history = await seeded(open);
      expect(await find(history, A, { q: '配達' })).toEqual([7]);
      expect(await find(history, A, { q: 'お荷物の配達' })).toEqual([7]);
      expect(await find(history, A, { q: 'ORDER-1', 'sort-order': 'asc' })).toEqual([
        1, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
      ]);
      expect(await find(history, A, { q: 'sakura', status: 'UNDELIV', 'sort-order': 'asc' })).toEqual([6, 12, 18]);
      // Part of a trx_id; and a two-character text (below the trigram index, read row by row).
      expect(await find(history, A, { q: '8000-000000000013' })).toEqual([13]);
      expect(await find(history, A, { q: 'お荷' })).toEqual([7]);
      // Two characters both in the text but never side by side: no match.
      expect(await find(history, A, { q: '物配' })).toEqual([]);
      // Two plain characters, any case: read row by row, all twenty references hold "r-".
      expect(await find(history, A, { q: 'R-' })).toHaveLength(20);
      // A LIKE wildcard is a literal character.
      expect(await find(history, A, { q: 'order_1' })).toEqual([]);
    });

    it('finds two wide characters wherever they stand: at the very end of a text, and in copies stored with the old pair suffix', async () => {
      const { history, db } = await open();
      await history.commitDayPage(
        A,
        day(),
        rows([
          cdr(1, { message_body: '明日お届けします' }),
          cdr(2, { message_body: 'ご予約ありがとうございました。' }),
        ]),
        [],
      );
      expect(await find(history, A, { q: 'ます' })).toEqual([1]); // the text's last two characters
      expect(await find(history, A, { q: 'た。' })).toEqual([2]);
      expect(await find(history, A, { q: 'ご予' })).toEqual([2]);
      if (dialect === 'sqlite') {
        // A copy made before the index's vocabulary answered pairs: its text ends with every pair
        // of wide characters marked by U+0001. Searches find it alike, and find nothing extra in it.
        const old = rows([cdr(3, { message_body: '配達完了' })])[0]!;
        await history.commitDayPage(
          A,
          day(2),
          [{ ...old, search_text: `${old.search_text}\n配達\u0001達完\u0001完了\u0001` }],
          [],
        );
        expect(await find(history, A, { q: '配達' })).toEqual([3]);
        expect(await find(history, A, { q: '完了' })).toEqual([3]);
        expect(await find(history, A, { q: '了配' })).toEqual([]);
        await history.settled();
        await checkTextIndex(db);
      }
    });

    it('finds what a Japanese keyboard types (half-width katakana, full-width Latin, ㈱) in records copied since, folded, and by the form it holds in one copied before', async () => {
      const { history } = await open();
      const body = 'ご注文ＯＲＤ－２０２６ ｻｸﾗﾏｰﾄ ㈱サクラ';
      // Record 2 as copies made before stored text was folded kept it: in lower case, not folded.
      const before = { ...rows([cdr(2, { message_body: body })])[0]!, search_text: body.toLowerCase() };
      await history.commitDayPage(A, day(), [...rows([cdr(1, { message_body: body })]), before], []);
      const both = [1, 2];
      const asc = { 'sort-order': 'asc' };
      expect(await find(history, A, { q: 'ｻｸﾗﾏｰﾄ', ...asc })).toEqual(both);
      expect(await find(history, A, { q: 'ＯＲＤ－２０２６', ...asc })).toEqual(both);
      expect(await find(history, A, { q: '㈱サクラ', ...asc })).toEqual(both);
      // The folded form finds the folded record; the one copied before only by the form it holds.
      expect(await find(history, A, { q: 'サクラマート', ...asc })).toEqual([1]);
      expect(await find(history, A, { q: 'ord-2026', ...asc })).toEqual([1]);
      expect(await find(history, A, { q: '(株)サクラ', ...asc })).toEqual([1]);
    });

    it('filters by the last digits of the number, price, parts, error code and latency', async () => {
      const history = await seeded(open);
      const to13 = TWENTY[12]!.to_address;
      expect(await find(history, A, { 'da-suffix': to13.slice(-4) })).toEqual([13]);
      expect(await find(history, A, { 'price-min': '6', 'sort-order': 'asc' })).toEqual([3, 7, 11, 15, 19]);
      expect(await find(history, A, { 'price-max': '3.3', parts: '2', 'sort-order': 'asc' })).toEqual([]);
      expect(await find(history, A, { 'price-max': '3.3', 'sort-order': 'asc' })).toEqual([4, 8, 12, 16, 20]);
      expect(await find(history, A, { 'dlr-error-code': '001', 'sort-order': 'asc' })).toEqual([3, 6, 9, 12, 15, 18]);
      // Delivered n seconds after submission: at least 18 s.
      expect(await find(history, A, { 'latency-min': '18', 'sort-order': 'asc' })).toEqual([18, 19, 20]);
    });

    it('sorts the whole result by any column, ties by received time then trx_id', async () => {
      const history = await seeded(open);
      const byPrice = await find(history, A, { sort: 'price', 'sort-order': 'desc' });
      // 6.30 for n ≡ 3 (mod 4), then 5.30, …; within a price, newest first.
      expect(byPrice.slice(0, 5)).toEqual([19, 15, 11, 7, 3]);
      expect(byPrice.slice(-5)).toEqual([20, 16, 12, 8, 4]);
      const byTo = await find(history, A, { sort: 'to_address', 'sort-order': 'asc' });
      expect(byTo).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      // A field with no column of its own is read from the record.
      const byBody = await find(history, A, { sort: 'message_body', 'sort-order': 'asc', q: 'code' });
      expect(byBody).toEqual([1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    });

    it('counts from the rollups exactly what the records hold, ragged ends included', async () => {
      const { history } = await open();
      // Records every 37 minutes over three days, so the ends cut through hours and days.
      const spread = Array.from({ length: (3 * 24 * 60) / 37 }, (_, i) =>
        cdr(100 + i, { date_received: iso(T0 + i * 37 * 60_000 + 1234) }),
      );
      await history.commitDayPage(A, day(), rows(spread), []);
      const from = T0 + 5 * 3600_000 + 17 * 60_000;
      for (const [to, where] of [
        [T0 + 2 * 86_400_000 + 7 * 3600_000 + 59_999, [] as Condition[]],
        [T0 + 3 * 86_400_000 - 1, [{ column: 'status', op: '=', value: 'UNDELIV' } as Condition]],
        [
          T0 + 86_400_000 + 3600_000 - 1,
          [
            { column: 'from_address', op: '=', value: 'SAKURA' } as Condition,
            { column: 'parts', op: '=', value: 1 } as Condition,
          ],
        ],
      ] as const) {
        const search = { scope: A, ranges: [{ from, to }], where, order: 'asc' as const };
        const listed = (await history.page(search, 0, 10_000)).length;
        expect(listed).toBeGreaterThan(0);
        expect(await history.count(search)).toBe(listed);
      }
    });

    it('finds a deep page through the hourly counts exactly where reading every record would', async () => {
      const { history } = await open();
      // 6,000 records over three days, so a page past the 2,000th record seeks, filtered or not.
      const many = Array.from({ length: 6000 }, (_, i) => cdr(1000 + i, { date_received: iso(T0 + i * 43_000 + 321) }));
      for (let i = 0; i < many.length; i += 500)
        await history.commitDayPage(A, day(), rows(many.slice(i, i + 500)), []);
      for (const order of ['asc', 'desc'] as const) {
        for (const where of [[], [{ column: 'status', op: '=', value: 'DELIVRD' } as Condition]]) {
          const search = {
            scope: A,
            ranges: [{ from: T0 + 1800_123, to: T0 + 2 * 86_400_000 + 7 * 3600_000 + 17 }],
            where,
            order,
          };
          const all = await history.page(search, 0, 10_000);
          expect(all.length).toBeGreaterThan(2_100);
          for (const offset of [2_000, 2_001, all.length - 10])
            expect(await history.page(search, offset, 25)).toEqual(all.slice(offset, offset + 25));
        }
      }
    });

    it('calls no day complete while it is being synced', async () => {
      const history = await seeded(open);
      expect((await history.getDay(A, DAY))?.state).toBe('syncing');
      expect(await history.completeDays(A, '2026-09-30', '2026-10-02')).toEqual([]);
      await history.stageDayPage(A, { ...day(20), state: 'building' }, null);
      expect(await history.completeDays(A, '2026-09-30', '2026-10-02')).toEqual([]);
      // The days the sync still works on, with their progress; a complete one, another scope's, not.
      await history.commitDayPage(B, day(), rows([cdr(40)]), []);
      await history.commitDayPage(
        A,
        { ...day(1), day: '2026-09-30', state: 'complete', completedAt: T0 },
        rows([cdr(50, { date_received: '2026-09-30T12:00:00.000+0000' })]),
        [],
      );
      expect(await history.completeDays(A, '2026-09-30', '2026-10-02')).toEqual(['2026-09-30']);
      expect((await history.unfinishedDays(A)).map((d) => [d.day, d.state, d.progress])).toEqual([
        [DAY, 'syncing', { page: 1 }],
      ]);
    });

    it('never shows one scope’s records to another, free text and counts over part of a day included', async () => {
      const history = await seeded(open);
      // B's records in the same hour as A's: a count of whole hours (not the whole day) is A's alone.
      await history.commitDayPage(B, day(), rows([cdr(40), cdr(41)]), []);
      const firstHour = [{ from: T0, to: T0 + 3600_000 - 1 }];
      expect(await history.count(localSearchOf(A, q({}), firstHour))).toBe(20);
      expect(await history.count(localSearchOf(B, q({}), firstHour))).toBe(2);
      await history.commitDayPage(B, day(), rows([cdr(99, { message_body: 'only for B: 配達済み' })]), []);
      expect(await find(history, B, { q: '配達' })).toEqual([99]);
      expect(await find(history, A, { q: '配達済み' })).toEqual([]);
      expect(await history.record(A, cdr(99).trx_id)).toBeNull();
      expect(await history.record(B, cdr(99).trx_id)).not.toBeNull();
    });

    it('tells whether a scope holds records of an enterprise on a range of days, its own copy only', async () => {
      const history = await seeded(open);
      await history.commitDayPage(B, day(), rows([cdr(40, { enterprise_id: 'ent-2' })]), []);
      const dayAfter = T0 + 86_400_000;
      expect(await history.holdsEnterprise(A, 'ent-1', T0, T0)).toBe(true);
      expect(await history.holdsEnterprise(A, 'ent-1', T0 - 86_400_000, T0 + 60_000)).toBe(true);
      expect(await history.holdsEnterprise(A, 'ent-1', dayAfter, dayAfter + 3_600_000)).toBe(false);
      expect(await history.holdsEnterprise(A, 'ent-2', T0, T0)).toBe(false);
      expect(await history.holdsEnterprise(B, 'ent-2', T0, T0)).toBe(true);
      expect(await history.holdsEnterprise(B, 'ent-1', T0, T0)).toBe(false);
    });

    it('forgets a deleted local history entirely: records, days, results and what free text could find', async () => {
      const history = await seeded(open);
      await history.addResultRecords(A, rows([cdr(50)]));
      await history.putResult(A, { key: 'k', filters: {}, from: T0, to: T0 + 3600_000 }, 1, T0);
      await history.commitDayPage(B, day(), rows([cdr(1)]), []);
      await history.deleteScope(A);
      expect(await find(history, A, { q: 'order' })).toEqual([]);
      expect(await history.listDays(A)).toEqual([]);
      expect(await history.results(A)).toEqual([]);
      expect((await history.size(A)).records).toBe(0);
      // Another scope keeps its local history, its text index included.
      expect(await find(history, B, { q: 'order-1' })).toEqual([1]);
    });

    it('finds by free text every record however it was stored (a day page, a page again, a result); the text index stays equal to the records, a deletion included', async () => {
      const { history, db } = await open();
      await history.commitDayPage(A, day(), rows([cdr(1), cdr(2)]), rows([cdr(3)]));
      await history.commitDayPage(A, day(2), rows([cdr(2), cdr(4)]), []);
      await history.addResultRecords(A, rows([cdr(4), cdr(5, { message_body: 'result only: 予約' })]));
      expect(await find(history, A, { q: 'order-' })).toEqual([5, 4, 3, 2, 1]);
      expect(await find(history, A, { q: '予約' })).toEqual([5]);
      if (dialect === 'sqlite') {
        // FTS5 checks its index against the records it indexes: an entry missing, extra or stale
        // fails. (It is written when the writer is idle: settled.)
        await history.settled();
        await checkTextIndex(db);
        await history.deleteScope(A);
        await checkTextIndex(db);
      }
    });

    if (dialect === 'sqlite') {
      it('finds by free text the records the text index does not hold yet, and the same once it does', async () => {
        const { history, db } = await open();
        // Written straight, as the writer does before its idle time: the index holds none of them.
        const writes = createHistoryWrites(db, dialect);
        await writes.addRecords(A, rows(TWENTY));
        await writes.addRecords(B, rows([cdr(7, { message_body: 'B の配達' })]));
        const searches: Record<string, string>[] = [
          { q: '配達' },
          { q: 'お荷物の配達' },
          { q: 'ORDER-1', 'sort-order': 'asc' },
          { q: 'sakura', status: 'UNDELIV' },
          { q: '8000-000000000013' },
        ];
        const unindexed = [];
        for (const params of searches) unindexed.push(await find(history, A, params));
        expect(unindexed[0]).toEqual([7]);
        expect(unindexed[2]).toHaveLength(11);
        // Caught up in slices, oldest first: half indexed, the same finds.
        expect(await writes.indexPendingText(15)).toBe(15);
        for (const [i, params] of searches.entries()) expect(await find(history, A, params)).toEqual(unindexed[i]);
        // A record stored meanwhile is found before the index holds it, and the same once it does.
        await writes.addRecords(A, rows([cdr(30, { message_body: '配達の再開' })]));
        const beforeIndexed = [];
        for (const params of searches) beforeIndexed.push(await find(history, A, params));
        expect(beforeIndexed[0]).toEqual([30, 7]);
        expect(await writes.indexPendingText(100)).toBe(7);
        expect(await writes.indexPendingText(100)).toBe(0);
        for (const [i, params] of searches.entries()) expect(await find(history, A, params)).toEqual(beforeIndexed[i]);
        await checkTextIndex(db);
        await writes.deleteScope(A);
        await checkTextIndex(db);
        expect(await find(history, B, { q: '配達' })).toEqual([7]);
      });
    }

    it('answers a complete day from its pack exactly as from its rows, the next day’s first instant included, and builds the pack again when the day gains a record', async () => {
      const store = await open();
      // The packs the store was answered from, counted: proof that the second round used them.
      const writer = createHistoryWriter(inlineBackend(createHistoryWrites(store.db, dialect)));
      const packs = createDayPackStore(store.db, (scope, d) => writer.buildPackWhenIdle(scope, d));
      let answered = 0;
      const counting: DayPackStore = {
        ...packs,
        packs: async (scope, days) => {
          const found = await packs.packs(scope, days);
          answered += found.size;
          return found;
        },
      };
      // Every text through the packs, however few its finds (the store looks a few up one by one).
      const history = createHistoryStore(store.db, dialect, writer, counting, { fewFinds: 0 });
      await history.commitDayPage(A, day(), rows(TWENTY.slice(0, 10)), []);
      await history.commitDayPage(A, day(10), rows(TWENTY.slice(10)), []);
      // The next day's first instant (the search below ends there), and another scope with the same texts.
      const midnight = cdr(40, { date_received: iso(T0 + 86_400_000), message_body: 'お荷物の配達: next day' });
      await history.commitDayPage(A, { ...day(), day: '2026-10-02' }, rows([midnight]), []);
      await history.commitDayPage(B, day(), rows(TWENTY.slice(0, 5)), []);
      // Two records of one instant, stored in the reverse of their trx_id order: a pack keeps the tie rule.
      const tie = (n: number) => cdr(n, { date_received: iso(T0 + 30 * 60_000), message_body: 'tie-text' });
      await history.commitDayPage(A, day(20), rows([tie(61)]), []);
      await history.commitDayPage(A, day(21), rows([tie(60)]), []);
      const searches: Record<string, string>[] = [
        { q: '配達' },
        { q: 'tie-text', 'sort-order': 'asc' },
        { q: 'tie-text' },
        { q: '配達', 'sort-order': 'asc' },
        { q: 'sakura', 'sort-order': 'asc' },
        { q: 'ORDER-1', status: 'DELIVRD' },
        { q: 'code', 'latency-min': '5', 'price-max': '5.3' },
        { q: 'お荷' },
        { q: 'R-', 'sort-order': 'asc' },
        { 'price-min': '4', 'sort-order': 'asc' },
        { 'latency-min': '10' },
        { 'latency-min': '10', network: '44010', 'dlr-error-code': '000', parts: '2' },
        { q: 'no such text' },
      ];
      const before: number[][] = [];
      for (const params of searches) before.push(await find(history, A, params));
      expect(answered).toBe(0);
      expect(before[0]).toEqual([40, 7]);
      expect(before[1]).toEqual([60, 61]);
      expect(before[2]).toEqual([61, 60]);

      await history.commitDayPage(A, { ...day(22), state: 'complete', completedAt: T0 }, [], []);
      // Its pack is built once the writer has nothing else to do.
      await history.settled();
      for (const [i, params] of searches.entries())
        expect(await find(history, A, params), JSON.stringify(params)).toEqual(before[i]);
      expect(answered).toBeGreaterThan(0);

      // A record the complete day did not have yet (a result of the page cache): its pack is
      // dropped, asked for again by the sync (queueMissingPacks) and built when the writer is idle.
      await history.addResultRecords(A, rows([cdr(50, { message_body: '配達の再開' })]));
      expect(await history.queueMissingPacks(A)).toBe(1);
      await history.settled();
      expect(await history.queueMissingPacks(A)).toBe(0);
      answered = 0;
      expect(await find(history, A, { q: '配達' })).toEqual([40, 50, 7]);
      expect(answered).toBeGreaterThan(0);
      // Or by the first search to need it (answered by the rows until it is there).
      await history.addResultRecords(A, rows([cdr(51, { message_body: '配達の再開' })]));
      expect(await find(history, A, { q: '配達' })).toEqual([40, 51, 50, 7]);
      await history.settled();
      expect(await history.queueMissingPacks(A)).toBe(0);
      answered = 0;
      expect(await find(history, A, { q: '配達' })).toEqual([40, 51, 50, 7]);
      expect(answered).toBeGreaterThan(0);
      // Deleted with its local history: nothing left to answer from.
      await history.deleteScope(A);
      expect(await find(history, A, { q: '配達' })).toEqual([]);
      expect(await find(history, B, { q: 'sakura' })).toEqual([4, 2]);
    });

    it('drops days before the start day, with their records', async () => {
      const { history } = await open();
      const earlier: HistoryRecordRow[] = rows([cdr(1, { date_received: iso(T0 - 86_400_000 + 5000) })]);
      await history.commitDayPage(A, { ...day(), day: '2026-09-30' }, earlier, []);
      await history.commitDayPage(A, day(), rows([cdr(2)]), []);
      await history.deleteBefore(A, DAY);
      expect((await history.listDays(A)).map((d) => d.day)).toEqual([DAY]);
      expect((await history.size(A)).records).toBe(1);
    });

    it('drops many records before the start day, a batch at a time, and keeps those after it', async () => {
      const { history } = await open();
      const many = rows(
        Array.from({ length: 1_234 }, (_, i) => cdr(1_000 + i, { date_received: iso(T0 - 86_400_000 + i * 1000) })),
      );
      await history.addResultRecords(A, many);
      await history.commitDayPage(A, day(), rows([cdr(2)]), []);
      expect((await history.size(A)).records).toBe(1_235);
      await history.deleteBefore(A, DAY);
      expect((await history.size(A)).records).toBe(1);
      expect(await find(history, A, {})).toEqual([2]);
    });
  });
});
