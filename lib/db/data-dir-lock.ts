import 'server-only';
/**
 * One process per SQLite data folder. Two instances on one file would each run their own governor
 * (in-flight slot, queue) and could together overrun the upstream's limits; several instances need
 * PostgreSQL, where they share one database.
 *
 * The lock is an exclusive transaction held open on a small SQLite file beside the store: SQLite
 * takes it with an fcntl lock, which the kernel drops when the process ends however it ends, so a
 * crash never leaves a stale lock behind (unlike a PID file), and a second connection in the same
 * process is refused too.
 */
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { ensurePrivateFile } from './private-files';

export const LOCK_FILE_NAME = 'dashboard.lock';

export class DataDirInUseError extends Error {
  constructor(dataDir: string) {
    super(
      `Another dashboard process is using the data folder ${dataDir}. One SQLite data folder serves one instance; ` +
        'to run several instances, set DATABASE_URL to a PostgreSQL database (postgres://…) that they share.',
    );
    this.name = 'DataDirInUseError';
  }
}

export interface DataDirLock {
  release(): void;
}

export function lockDataDir(dataDir: string): DataDirLock {
  const file = path.join(dataDir, LOCK_FILE_NAME);
  ensurePrivateFile(file);
  // timeout 0: a held lock is an answer, not something to wait for.
  const holder = new SqliteDatabase(file, { timeout: 0 });
  try {
    holder.exec('BEGIN EXCLUSIVE');
  } catch (err) {
    holder.close();
    if ((err as { code?: string }).code === 'SQLITE_BUSY') throw new DataDirInUseError(dataDir);
    throw err;
  }
  return {
    release() {
      // Closing the connection ends the transaction and drops the lock.
      if (holder.open) holder.close();
    },
  };
}
