/**
 * Records named by id (./record-ids.ts), on both backends: exactly the listed records of the scope,
 * and on SQLite each looked up by its id, never a pass over the scope's records (a day's rollups
 * would read the whole copy on every slice of every day copied).
 */
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import type { Cdr } from '../cdr/schema';
import { historyRow } from '../cdr/record-columns';
import { forEachBackend } from '@/tests/support/backends';
import { createHistoryWrites } from '../history/store/writes';
import { recordIdIn, recordsWithIds } from './record-ids';

const T0 = Date.UTC(2026, 9, 1);

function row(n: number) {
  const at = new Date(T0 + n * 60_000).toISOString().replace('Z', '+0000');
  const cdr = {
    trx_id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    date_received: at,
    to_address: '819012345678',
    delivery_status: 'DELIVRD',
    price_currency: 'JPY',
  };
  return historyRow(cdr as unknown as Cdr)!;
}

forEachBackend((open, dialect) => {
  it('gives the listed records of the scope, and no other', async () => {
    const store = await open();
    const writes = createHistoryWrites(store.db, dialect);
    await writes.addRecords('scope-a', [1, 2, 3, 4, 5].map(row));
    await writes.addRecords('scope-b', [1, 2, 3].map(row));
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
    const [scopeA, scopeB] = [await numberOf('scope-a'), await numberOf('scope-b')];
    const ids = async (scopeNo: number) =>
      (
        await store.db
          .selectFrom('history_records')
          .select('id')
          .where('scope_no', '=', scopeNo)
          .orderBy('id')
          .execute()
      ).map((r) => Number(r.id));
    const [a, b] = [await ids(scopeA), await ids(scopeB)];
    // Listed twice, given once (as `IN` gives it).
    const listed = [a[1]!, a[3]!, b[0]!, a[3]!];
    const { rows } = await sql<{
      id: number;
    }>`select history_records.id as id from ${recordsWithIds(dialect, scopeA, listed)} order by 1`.execute(store.db);
    expect(rows.map((r) => Number(r.id))).toEqual([a[1], a[3]]);
    const { rows: matched } = await sql<{
      n: number;
    }>`select count(*) as n from history_records where ${recordIdIn(dialect, listed)}`.execute(store.db);
    expect(Number(matched[0]!.n)).toBe(3);
    const { rows: counted } = await sql<{
      n: number;
    }>`select count(*) as n from ${recordsWithIds(dialect, scopeA, listed)}`.execute(store.db);
    expect(Number(counted[0]!.n)).toBe(2);
  });

  if (dialect === 'sqlite') {
    it('looks each listed record up by its id, never scanning the scope', async () => {
      const store = await open();
      await createHistoryWrites(store.db, dialect).addRecords(
        'scope-a',
        Array.from({ length: 50 }, (_, n) => row(n)),
      );
      const { rows } = await sql<{
        detail: string;
      }>`explain query plan select history_records.status, count(*) from ${recordsWithIds(dialect, 1, [1, 2])} group by 1`.execute(
        store.db,
      );
      const plan = rows.map((r) => r.detail).join('\n');
      expect(plan).toMatch(/SEARCH history_records USING INTEGER PRIMARY KEY/);
      expect(plan).not.toMatch(/(SCAN|SEARCH) history_records USING (COVERING )?INDEX/);
    });
  }
});
