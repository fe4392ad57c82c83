import SqliteDatabase from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { withStatementCache } from './statement-cache';

const opened: SqliteDatabase.Database[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
});

function database(): SqliteDatabase.Database {
  const db = new SqliteDatabase(':memory:');
  opened.push(db);
  db.exec('create table t (n integer); insert into t values (1), (2), (3);');
  return db;
}

describe('kept SQLite statements', () => {
  it('are compiled once per SQL text and give the same answers', () => {
    const cached = withStatementCache(database());
    const a = cached.prepare('select n from t where n >= ?');
    expect(cached.prepare('select n from t where n >= ?')).toBe(a);
    expect(a.all([2])).toEqual([{ n: 2 }, { n: 3 }]);
    expect(cached.prepare('select n from t where n >= ?').all([3])).toEqual([{ n: 3 }]);
  });

  it('give a statement being iterated to nobody else', () => {
    const cached = withStatementCache(database());
    const streaming = cached.prepare('select n from t');
    const rows = streaming.iterate([]);
    rows.next();
    const other = cached.prepare('select n from t');
    expect(other).not.toBe(streaming);
    expect(other.all([])).toHaveLength(3);
    rows.return?.();
    expect(cached.prepare('select n from t')).toBe(streaming);
  });

  it('keep at most `max`, dropping the least recently used', () => {
    const cached = withStatementCache(database(), 2);
    const one = cached.prepare('select 1');
    const two = cached.prepare('select 2');
    expect(cached.prepare('select 1')).toBe(one);
    cached.prepare('select 3');
    expect(cached.prepare('select 1')).toBe(one);
    expect(cached.prepare('select 2')).not.toBe(two);
  });

  it('still see the schema change under a kept statement', () => {
    const db = database();
    const cached = withStatementCache(db);
    expect(cached.prepare('select * from t limit 1').all([])).toEqual([{ n: 1 }]);
    db.exec('alter table t add column m integer default 7');
    expect(cached.prepare('select * from t limit 1').all([])).toEqual([{ n: 1, m: 7 }]);
  });
});
