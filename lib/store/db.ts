import 'server-only';
/**
 * The embedded store: one SQLite file under DATA_DIR. Each sub-store (ledger, cache, vault, exports)
 * creates its own tables, so they can be read and replaced one at a time (e.g. by Redis).
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

export type Db = Database.Database;

export function openDatabase(file: string): Db {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  // WAL lets the export worker write while requests read; NORMAL is durable across a process crash.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  return db;
}
