import 'server-only';
/**
 * The embedded store's file, `dashboard.sqlite` in DATA_DIR, opened with the settings every
 * connection to it needs.
 */
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { ensurePrivateFile, tightenIfPresent } from './private-files';

export const SQLITE_FILE_NAME = 'dashboard.sqlite';

export const sqliteFileOf = (dataDir: string) => path.join(dataDir, SQLITE_FILE_NAME);

export function openSqliteFile(dataDir: string): SqliteDatabase.Database {
  const file = sqliteFileOf(dataDir);
  // SQLite gives the -wal and -shm files it creates the main file's mode; older ones are tightened.
  ensurePrivateFile(file);
  for (const companion of ['-wal', '-shm', '-journal']) tightenIfPresent(file + companion);
  const db = new SqliteDatabase(file);
  try {
    // WAL lets readers go on while the export worker writes; NORMAL is durable across a process crash.
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    db.pragma('foreign_keys = ON');
    // Deleted rows (phone numbers, message bodies, sealed secrets) are overwritten with zeros, not
    // left readable in free pages of the file.
    db.pragma('secure_delete = ON');
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}
