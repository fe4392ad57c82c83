import 'server-only';
/**
 * SQLite's WAL checkpoints, taken off the event loop. A checkpoint copies what the write-ahead log
 * holds back into the database file and syncs both to disk; by default the connection that
 * commits past 1000 log pages does it there and then, so on a busy disk one commit in ten of an
 * export (each page it reads writes about 350 KB: its own rows, the dashboard's copy) stalled the
 * one thread that answers every request for tens of milliseconds.
 *
 * Here a worker thread with a connection of its own checkpoints every CHECKPOINT_EVERY_MS
 * (PASSIVE: it never waits for, nor blocks, the writer; with nothing new in the log it costs
 * nothing). The main connection checkpoints by itself only past MAIN_AUTOCHECKPOINT_PAGES: by then
 * the worker has copied nearly everything, so what is left is the sync, and the log starts over
 * (a log only starts over when a writer finds it all copied, which a writer that keeps writing
 * while another thread copies seldom does: the log file grows to about that size). A worker that
 * cannot start or stops gives the main connection SQLite's default back. Durability is the same
 * either way (synchronous = NORMAL).
 *
 * The worker loads better-sqlite3 from the project's own node_modules (resolved from the working
 * directory, where `next start`, the tests and the benchmarks run); not found, there is no worker.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type SqliteDatabase from 'better-sqlite3';
import { log } from '../log';

export const CHECKPOINT_EVERY_MS = 100;
/** About 40 MB of log before the main connection checkpoints by itself. */
export const MAIN_AUTOCHECKPOINT_PAGES = 10_000;
/** SQLite's own default. */
const DEFAULT_AUTOCHECKPOINT_PAGES = 1_000;

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
const timer = setInterval(() => db.pragma('wal_checkpoint(PASSIVE)'), workerData.everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
parentPort.postMessage('ready');
`;

export interface BackgroundCheckpoints {
  /** Stops the worker (before the main connection closes). */
  stop(): Promise<void>;
}

export interface BackgroundCheckpointOptions {
  /** Where better-sqlite3 is (tests); by default resolved from the working directory. */
  driver?: string;
  everyMs?: number;
}

function driverPath(): string | null {
  try {
    return createRequire(path.join(process.cwd(), 'package.json')).resolve('better-sqlite3');
  } catch {
    return null;
  }
}

/** Starts checkpointing `file` in a worker; `main` is the connection that writes it. */
export async function startBackgroundCheckpoints(
  main: SqliteDatabase.Database,
  file: string,
  options: BackgroundCheckpointOptions = {},
): Promise<BackgroundCheckpoints> {
  const fallBack = (reason: string) => {
    if (main.open) main.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
    log.warn('store.checkpoints_in_main_thread', { reason });
  };
  const driver = options.driver ?? driverPath();
  if (!driver) {
    fallBack('better-sqlite3 not found from the working directory');
    return { stop: async () => {} };
  }
  let worker: Worker;
  try {
    worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { driver, file, everyMs: options.everyMs ?? CHECKPOINT_EVERY_MS },
    });
  } catch (err) {
    fallBack(err instanceof Error ? err.message : String(err));
    return { stop: async () => {} };
  }
  // Neither a test nor a stopping server waits for it.
  worker.unref();
  let stopping = false;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  let failed: string | null = null;
  // A failure (a checkpoint that throws: the disk, the file) ends the worker; the main connection
  // takes the checkpoints back.
  worker.on('error', (err) => {
    failed = err.message;
  });
  const ready = await new Promise<boolean>((resolve) => {
    worker.once('message', () => resolve(true));
    worker.once('exit', () => resolve(false));
  });
  if (!ready) {
    fallBack(failed ?? 'the checkpoint worker did not start');
    return { stop: () => exited };
  }
  main.pragma(`wal_autocheckpoint = ${MAIN_AUTOCHECKPOINT_PAGES}`);
  worker.once('exit', () => {
    if (!stopping) fallBack(failed ?? 'the checkpoint worker stopped');
  });
  return {
    async stop() {
      stopping = true;
      worker.postMessage('stop');
      await exited;
    },
  };
}
