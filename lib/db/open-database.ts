import 'server-only';
/**
 * Opens the durable store: PostgreSQL when given a postgres:// URL (several instances share it),
 * else the embedded SQLite file under the data folder (one instance). Callers get a Kysely handle
 * and the dialect; the tables come from `migrate` (./migrate.ts).
 */
import path from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import { isPostgresUrl } from '../config';
import { startBackgroundCheckpoints } from './background-checkpoints';
import { lockDataDir } from './data-dir-lock';
import { attachHistoryFile, historyFileOf } from './history-file';
import { createPostgresPool } from './postgres-pool';
import { ensurePrivateDir } from './private-files';
import type { Database, SqlDialect } from './schema';
import { openSqliteFile, SQLITE_FILE_NAME } from './sqlite-file';
import { withStatementCache } from './statement-cache';
import { DashboardSqliteDialect } from './sqlite-dialect';

export interface OpenDatabaseOptions {
  /** A postgres:// (or postgresql://) URL; absent, the SQLite file under `dataDir`. */
  databaseUrl?: string | undefined;
  /** The data folder (absolute): the SQLite file lives here. */
  dataDir: string;
  /** PostgreSQL only: the name the connections carry in pg_stat_activity. */
  applicationName?: string;
  /** PostgreSQL only: connections at most (default 10). */
  poolSize?: number;
}

export interface OpenedDatabase {
  db: Kysely<Database>;
  dialect: SqlDialect;
  /** PostgreSQL only: the pool itself, for what needs one connection held (advisory locks, LISTEN). */
  pool?: pg.Pool;
  /** Closes the connections (and, for SQLite, frees the data folder for another process). */
  close(): Promise<void>;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<OpenedDatabase> {
  if (options.databaseUrl !== undefined && options.databaseUrl !== '') {
    if (!isPostgresUrl(options.databaseUrl))
      throw new Error('DATABASE_URL must be a postgres:// URL (leave it unset for the embedded SQLite file)');
    return openPostgres(options.databaseUrl, options.applicationName, options.poolSize);
  }
  return await openSqlite(options.dataDir);
}

async function openPostgres(
  url: string,
  applicationName: string | undefined,
  max: number | undefined,
): Promise<OpenedDatabase> {
  const pool = createPostgresPool({ connectionString: url, applicationName, ...(max ? { max } : {}) });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  try {
    // Fail at start with a clear cause, not at the first request. (The URL may hold a password: it
    // is never part of the message.)
    const client = await pool.connect();
    client.release();
  } catch (err) {
    await db.destroy();
    throw new Error(
      `Cannot connect to the PostgreSQL database of DATABASE_URL: ${err instanceof Error ? err.message : String(err)}`,
      { cause: err },
    );
  }
  return { db, dialect: 'postgres', pool, close: once(() => db.destroy()) };
}

/** A data folder this user may not write, or that is not a folder: said with the folder and what to do, not as a bare EACCES. */
function notWritable(dataDir: string, err: unknown): Error {
  const code = (err as { code?: string }).code;
  if (code === 'EEXIST' || code === 'ENOTDIR') {
    return new Error(
      `The data folder ${dataDir} (DATA_DIR) is not a folder: it, or a folder on its path, is a file (${code}). Set DATA_DIR to a folder, or to a path that does not exist yet.`,
      { cause: err },
    );
  }
  if (code === 'ENOENT') {
    return new Error(
      `The data folder ${dataDir} (DATA_DIR) cannot be made there (ENOENT: that place takes no new folder, as under /proc). Set DATA_DIR to a folder on a disk.`,
      { cause: err },
    );
  }
  if (code !== 'EACCES' && code !== 'EPERM' && code !== 'EROFS') return err as Error;
  return new Error(
    `The data folder ${dataDir} (DATA_DIR) cannot be written by this user (${code}): give the server's user that folder, or set DATA_DIR to one it owns.`,
    { cause: err },
  );
}

async function openSqlite(dataDir: string): Promise<OpenedDatabase> {
  let lock;
  try {
    ensurePrivateDir(dataDir);
    lock = lockDataDir(dataDir);
  } catch (err) {
    throw notWritable(dataDir, err);
  }
  let database;
  try {
    database = openSqliteFile(dataDir);
  } catch (err) {
    lock.release();
    throw err;
  }
  try {
    // The local history's data, written by its own thread, read here (history-file.ts).
    attachHistoryFile(database, historyFileOf(dataDir));
  } catch (err) {
    database.close();
    lock.release();
    throw err;
  }
  const checkpoints = await startBackgroundCheckpoints(database, path.join(dataDir, SQLITE_FILE_NAME));
  const db = new Kysely<Database>({ dialect: new DashboardSqliteDialect({ database: withStatementCache(database) }) });
  return {
    db,
    dialect: 'sqlite',
    close: once(async () => {
      await checkpoints.stop();
      await db.destroy();
      lock.release();
    }),
  };
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => (closing ??= fn());
}
