import 'server-only';
/**
 * The local history's data in SQLite — records, bodies, text index, rollups, day packs — lives in
 * a file of its own beside the store's, `history.sqlite` in DATA_DIR. SQLite lets one connection
 * write a file at a time: with the history apart, the thread that copies days into it
 * (lib/history/store/writer-thread.ts) never holds the lock the server's own writes need (a
 * search's cached page, the governor's ledger), nor waits for them. The server's connection
 * attaches it to read (searches, Insights) as schema `history`, under the tables' own names: a
 * query need not know which file holds them.
 */
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { HISTORY_SCHEMA, historyFilePragmas } from './migrations/history-schema';
import { ensurePrivateFile, tightenIfPresent } from './private-files';

const HISTORY_FILE_NAME = 'history.sqlite';

export const historyFileOf = (dataDir: string) => path.join(dataDir, HISTORY_FILE_NAME);

/** Creates the file readable by this user only (SQLite gives its companions the file's mode). */
function ensureFile(file: string): void {
  ensurePrivateFile(file);
  for (const companion of ['-wal', '-shm', '-journal']) tightenIfPresent(file + companion);
}

export { HISTORY_PAGE_BYTES } from './migrations/history-schema';

function settle(db: SqliteDatabase.Database, schema: string): void {
  for (const pragma of historyFilePragmas(schema)) db.exec(pragma);
}

/**
 * Copies the history file's log into it and empties the log, on a connection where that file is
 * schema `schema` ('main' on the writer's own, HISTORY_SCHEMA where it is attached). Named: an
 * unnamed `wal_checkpoint` checkpoints every attached file, and a TRUNCATE of the store's file
 * blocks the server's writes until no reader is left (under load, a sign-in answered 500 with
 * "database is locked").
 */
export function truncateHistoryLog(schema: string): string {
  return `pragma ${schema}.wal_checkpoint(TRUNCATE)`;
}

/** Opens the history file as the writer's own connection. */
export function openHistoryFile(file: string): SqliteDatabase.Database {
  ensureFile(file);
  const db = new SqliteDatabase(file);
  try {
    db.pragma('busy_timeout = 5000');
    settle(db, 'main');
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

/** Attaches the history file to the server's connection, as schema `history`. */
export function attachHistoryFile(db: SqliteDatabase.Database, file: string): void {
  ensureFile(file);
  db.prepare(`attach database ? as ${HISTORY_SCHEMA}`).run(file);
  settle(db, HISTORY_SCHEMA);
}
