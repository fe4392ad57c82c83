import 'server-only';
/**
 * The history writer's thread (started by ./writer-thread.ts): opens its own connection —
 * the history file (SQLite) or a small pool (PostgreSQL) — and runs the writes it is sent, one at
 * a time, answering each with its result or its error's message. `close` ends it.
 */
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { parentPort, workerData } from 'node:worker_threads';
import { openHistoryFile, truncateHistoryLog } from '../../db/history-file';
import { createPostgresPool } from '../../db/postgres-pool';
import type { Database } from '../../db/schema';
import { withStatementCache } from '../../db/statement-cache';
import { createHistoryWrites } from './writes';
import { failureOf } from './writer-failure';
import type { WriterReply, WriterRequest, WriterTarget } from './writer-thread';

/** Log pages before a write checkpoints the history file by itself (SQLite's default is 1,000): about 40 MB. */
const AUTOCHECKPOINT_PAGES = 10_000;
/** Quiet this long after a write, the history file's log is copied into it and emptied. */
const CHECKPOINT_AFTER_MS = 250;

/**
 * The writer's connection; `quiet` runs when no write came for a while. SQLite: the history file
 * (with the store's file attached, to read the pages staged there), checkpointed when the writer
 * is quiet rather than in the middle of syncing a day (a checkpoint copies and syncs megabytes;
 * between two writes of a busy sync it would only delay the next).
 */
function open(target: WriterTarget): { db: Kysely<Database>; quiet: () => void } {
  if (target.dialect === 'postgres') {
    const pool = createPostgresPool({
      connectionString: target.url,
      applicationName: 'sms-history-dashboard (history writer)',
      max: 2,
    });
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), quiet: () => undefined };
  }
  const file = openHistoryFile(target.file);
  file.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
  // Only read here: the pages staged by the server's thread (history_staged_pages), found by name.
  file.prepare('attach database ? as store').run(target.storeFile);
  return {
    db: new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(file) }) }),
    // TRUNCATE, not PASSIVE: it waits for the server's reads of the moment, then empties the log.
    // A log left long (tens of MB after a synced day; nothing starts it over until the next write)
    // slows every read of the sync, each page looked up in it first: a free-text search over
    // 310,000 records takes 23 ms behind such a log, 14 ms once it is emptied.
    quiet: () => {
      if (file.open) file.exec(truncateHistoryLog('main'));
    },
  };
}

function serve(port: NonNullable<typeof parentPort>, target: WriterTarget): void {
  const { db, quiet } = open(target);
  // The history file is this connection's own ('main'); the store's is attached to read.
  const writes = createHistoryWrites(db, target.dialect, { historySchema: 'main' });
  let quietTimer: NodeJS.Timeout | undefined;
  // One at a time, in the order sent (the main thread's queue sends one anyway).
  let chain = Promise.resolve();
  port.on('message', (request: WriterRequest) => {
    clearTimeout(quietTimer);
    chain = chain.then(async () => {
      if (request.op === 'ready') {
        port.postMessage({ id: request.id, ok: true, value: null } satisfies WriterReply);
        return;
      }
      if (request.op === 'close') {
        clearTimeout(quietTimer);
        await db.destroy();
        port.postMessage({ id: request.id, ok: true, value: null } satisfies WriterReply);
        port.close();
        return;
      }
      try {
        const value = await (writes[request.op] as (...args: unknown[]) => Promise<unknown>)(...request.args);
        port.postMessage({ id: request.id, ok: true, value } satisfies WriterReply);
      } catch (err) {
        port.postMessage({ id: request.id, ok: false, ...failureOf(err) } satisfies WriterReply);
      }
      clearTimeout(quietTimer);
      quietTimer = setTimeout(quiet, CHECKPOINT_AFTER_MS);
      quietTimer.unref();
    });
  });
}

if (parentPort) serve(parentPort, workerData as WriterTarget);
