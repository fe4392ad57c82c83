import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { bulkInsert } from './bulk-insert';

interface Db {
  items: { id: string; n: number; note: string };
}

let db: Kysely<Db>;
let built = 0;
function open() {
  const file = new SqliteDatabase(':memory:');
  file.exec('create table items (id text primary key, n integer, note text)');
  db = new Kysely<Db>({ dialect: new SqliteDialect({ database: file }) });
  built = 0;
}
afterEach(async () => db?.destroy());

const rows = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => ({ id: `${prefix}${i}`, n: i, note: `${prefix}-${i}` }));
const all = () => db.selectFrom('items').selectAll().orderBy('id').execute();

describe('bulkInsert', () => {
  it('writes each call its own values when it reuses the SQL of the first', async () => {
    open();
    const insert = (batch: ReturnType<typeof rows>) =>
      bulkInsert(db, 'items', batch, () => {
        built += 1;
        return db.insertInto('items').values(batch);
      });
    await insert(rows('a', 3));
    await insert(rows('b', 3));
    await insert(rows('c', 2));
    // Built once per row count: 3 rows, then 2.
    expect(built).toBe(2);
    expect((await all()).map((r) => `${r.id}:${r.n}:${r.note}`)).toEqual([
      'a0:0:a-0',
      'a1:1:a-1',
      'a2:2:a-2',
      'b0:0:b-0',
      'b1:1:b-1',
      'b2:2:b-2',
      'c0:0:c-0',
      'c1:1:c-1',
    ]);
  });

  it('builds every time a statement that takes values besides its rows', async () => {
    open();
    await db.insertInto('items').values(rows('x', 1)).execute();
    const upsert = (note: string) =>
      bulkInsert(db, 'items-upsert', [{ id: 'x0', n: 1, note: 'unused' }], () => {
        built += 1;
        return db
          .insertInto('items')
          .values({ id: 'x0', n: 1, note: 'unused' })
          .onConflict((oc) => oc.column('id').doUpdateSet({ note }));
      });
    await upsert('first');
    await upsert('second');
    expect(built).toBe(2);
    expect((await all()).map((r) => r.note)).toEqual(['second']);
  });
});
