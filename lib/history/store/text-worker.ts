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
import { monthMatches, monthsWithTables, type RunSql } from './text-sqlite';
import { uniqueSorted } from './text-search';
import type { TextReply, TextRequest } from './text-thread';

interface Job {
  id: number;
  scopeNo: number;
  needles: string[];
  months: number[];
  tables: Set<number> | null;
  lists: string[];
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

  const jobs: Job[] = [];
  let working = false;

  const finish = (job: Job) => {
    const joined = job.lists.join(',');
    const ids = uniqueSorted(
      joined === '' ? new Float64Array(0) : Float64Array.from(JSON.parse(`[${joined}]`) as number[]),
    );
    port.postMessage({ id: job.id, ok: true, ids } satisfies TextReply, [ids.buffer as ArrayBuffer]);
  };

  /** One month of the job first in line, then the job goes to the back of the line. */
  const step = async () => {
    const job = jobs.shift();
    if (!job) {
      working = false;
      return;
    }
    try {
      job.tables ??= await monthsWithTables(run, job.scopeNo, job.months);
      const month = job.months.shift();
      if (month !== undefined)
        job.lists.push(...(await monthMatches(run, job.scopeNo, month, job.needles, job.tables.has(month))));
      if (job.months.length > 0) jobs.push(job);
      else finish(job);
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
      lists: [],
    });
    if (!working) {
      working = true;
      setImmediate(() => void step());
    }
  });
}

if (parentPort) serve(parentPort, (workerData as { file: string }).file);
