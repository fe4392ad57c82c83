import 'server-only';
/**
 * Compiled SQLite statements kept for reuse. Kysely prepares every query it runs, and better-sqlite3
 * compiles the SQL on each prepare; the dashboard runs the same few dozen statements over and over
 * (the session check of every request, the writes of every page an export reads), so compiled
 * statements are kept by their SQL text — the least recently used dropped past `max` — and reused.
 * A statement still being iterated (a streamed query) is busy: a second caller gets one of its own.
 */
import type SqliteDatabase from 'better-sqlite3';
import type { SqliteDatabase as KyselySqliteDatabase } from 'kysely';

export const KEPT_STATEMENTS = 256;

export function withStatementCache(db: SqliteDatabase.Database, max = KEPT_STATEMENTS): KyselySqliteDatabase {
  const kept = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => db.close(),
    prepare(sql) {
      const known = kept.get(sql);
      if (known && !known.busy) {
        // Most recently used last: Map order is the eviction order.
        kept.delete(sql);
        kept.set(sql, known);
        return known;
      }
      const statement = db.prepare(sql);
      if (!known) {
        kept.set(sql, statement);
        if (kept.size > max) kept.delete(kept.keys().next().value as string);
      }
      return statement;
    },
  };
}
