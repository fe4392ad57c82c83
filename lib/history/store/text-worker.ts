import 'server-only';
/**
 * The text thread (started by ./text-thread.ts): SQLite's free-text lookups of the local history
 * on a connection of their own, off the thread that answers requests. A common text over a year
 * of a busy account reads a million postings (a fifth of a second); on the server's thread that
 * would hold every other request meanwhile. Here lookups are cut into months (./text-sqlite.ts)
 * and the months of the lookups waiting are taken in turn, so a short one is not held behind a
 * long one for more than a month's work.
 */
import SqliteDatabase from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { concatIds, monthMatches, monthsWithTables, pendingMatches, type RunSql } from './text-sqlite';
import type { TextReply, TextRequest } from './text-thread';

/**
 * Ids kept of months already looked up, at most this many in all (8 bytes each: 64 MB): a person
 * paging through a text's results, or the next person asking it, reads no posting list again. A
 * month's table that changed since (its version) is looked up afresh.
 */
const KEPT_IDS = 8_000_000;

interface Job {
  id: number;
  scopeNo: number;
  needles: string[];
  months: number[];
  /** The months the scope has a table for, with their versions (read when the job starts). */
  tables: Map<number, number> | null;
  found: Float64Array[];
}

function serve(port: NonNullable<typeof parentPort>, file: string): void {
  const db = new SqliteDatabase(file, { fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  db.pragma('query_only = 1');
  const statements = new Map<string, SqliteDatabase.Statement>();
  const run: RunSql = async (statement, values) => {
    let prepared = statements.get(statement);
    if (!prepared) statements.set(statement, (prepared = db.prepare(statement)));
    return prepared.all(...values) as Record<string, unknown>[];
  };

  /** What months' lookups found, by scope, month and forms, the least recently used first. */
  const kept = new Map<string, { version: number; ids: Float64Array }>();
  let keptIds = 0;
  const keep = (key: string, version: number, ids: Float64Array) => {
    const before = kept.get(key);
    if (before) {
      kept.delete(key);
      keptIds -= before.ids.length;
    }
    if (ids.length > KEPT_IDS / 4) return;
    kept.set(key, { version, ids });
    keptIds += ids.length;
    for (const [oldest, entry] of kept) {
      if (keptIds <= KEPT_IDS) break;
      kept.delete(oldest);
      keptIds -= entry.ids.length;
    }
  };

  const jobs: Job[] = [];
  let working = false;

  /** One month of the job first in line, then the job goes to the back of the line. */
  const step = async () => {
    const job = jobs.shift();
    if (!job) {
      working = false;
      return;
    }
    try {
      if (job.tables === null) {
        job.tables = await monthsWithTables(run, job.scopeNo, job.months);
        // The texts not indexed yet, of every month asked: read once, first.
        job.found.push(await pendingMatches(run, job.scopeNo, job.months, job.needles));
      }
      const month = job.months.shift();
      if (month !== undefined && job.tables.has(month)) {
        const version = job.tables.get(month)!;
        const key = `${job.scopeNo}\u0000${month}\u0000${job.needles.join('\u0000')}`;
        const known = kept.get(key);
        if (known && known.version === version) {
          kept.delete(key);
          kept.set(key, known);
          job.found.push(known.ids);
        } else {
          const ids = await monthMatches(run, job.scopeNo, month, job.needles, true);
          keep(key, version, ids);
          job.found.push(ids);
        }
      }
      if (job.months.length > 0) jobs.push(job);
      else {
        // A new array (what is kept is copied into it), moved to the server's thread, not copied.
        const ids = concatIds(job.found);
        port.postMessage({ id: job.id, ok: true, ids } satisfies TextReply, [ids.buffer as ArrayBuffer]);
      }
    } catch (err) {
      port.postMessage({
        id: job.id,
        ok: false,
        message: err instanceof Error ? err.message : String(err),
      } satisfies TextReply);
    }
    // Messages (new lookups) are read between two months.
    setImmediate(() => void step());
  };

  port.on('message', (request: TextRequest) => {
    if (request.op === 'close') {
      db.close();
      port.postMessage({ id: request.id, ok: true, ids: new Float64Array(0) } satisfies TextReply);
      port.close();
      return;
    }
    jobs.push({
      id: request.id,
      scopeNo: request.scopeNo,
      needles: request.needles,
      months: [...request.months],
      tables: null,
      found: [],
    });
    if (!working) {
      working = true;
      setImmediate(() => void step());
    }
  });
}

if (parentPort) serve(parentPort, (workerData as { file: string }).file);
