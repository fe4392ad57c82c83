import 'server-only';
/**
 * SQLite's free text as the searches ask it (TextIndex, ./text-search.ts): the lookups run on the
 * text thread (./text-worker.ts, a connection of its own to the history file), so the thread
 * that answers everybody only sends them and waits; or, for a store without a thread (tests), on
 * the server's connection (`inlineTextLookup`). The ids come back as a typed array moved, not
 * copied, between the threads.
 *
 * Loading the worker: as the history writer's (./writer-thread.ts): bundled by `next build` from
 * `new Worker(new URL(…, import.meta.url))`, registered through tsx from the TypeScript sources.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { CompiledQuery, sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../../db/schema';
import { log } from '../../log';
import { concatIds, monthMatches, monthsWithTables, pendingMatches, type RunSql } from './text-sqlite';
import { monthsOf, textNeedles, type TextIds, type TextIndex } from './text-search';

export type TextRequest =
  { id: number; op: 'lookup'; scopeNo: number; months: number[]; needles: string[] } | { id: number; op: 'close' };
export type TextReply = { id: number; ok: true; ids: Float64Array } | { id: number; ok: false; message: string };

/** Where the lookups run: the ids of the scope's records of these months holding any of the forms. */
export interface TextLookup {
  lookup(scopeNo: number, months: readonly number[], needles: readonly string[]): Promise<TextIds>;
  close(): Promise<void>;
}

/** On the server's own connection (a store without a text thread). */
export function inlineTextLookup(db: Kysely<Database>): TextLookup {
  const run: RunSql = async (statement, values) =>
    (await db.executeQuery(CompiledQuery.raw(statement, [...values]))).rows as Record<string, unknown>[];
  return {
    async lookup(scopeNo, months, needles) {
      const tables = await monthsWithTables(run, scopeNo, months);
      const found = [await pendingMatches(run, scopeNo, months, needles)];
      for (const month of months) found.push(await monthMatches(run, scopeNo, month, needles, tables.has(month)));
      return concatIds(found);
    },
    close: async () => undefined,
  };
}

function spawn(file: string): Worker {
  if (!process.env.NEXT_RUNTIME) {
    const entry = path.join(path.dirname(fileURLToPath(import.meta.url)), 'text-worker.ts');
    return new Worker(`require('tsx/cjs/api').register(); require(${JSON.stringify(entry)});`, {
      eval: true,
      execArgv: ['--conditions=react-server'],
      workerData: { file },
    });
  }
  return new Worker(new URL('./text-worker.ts', import.meta.url), { workerData: { file } });
}

/** On the text thread, started at the first lookup (and again after one that ended it). */
export function threadTextLookup(file: string): TextLookup {
  let worker: Worker | null = null;
  let nextId = 1;
  const pending = new Map<number, { resolve(ids: TextIds): void; reject(err: Error): void }>();
  const failAll = (why: string) => {
    for (const [id, p] of pending) {
      pending.delete(id);
      p.reject(new Error(`The local history's text thread stopped (${why}); search again.`));
    }
  };
  const started = (): Worker => {
    if (worker) return worker;
    const w = spawn(file);
    w.on('message', (reply: TextReply) => {
      const p = pending.get(reply.id);
      if (!p) return;
      pending.delete(reply.id);
      if (reply.ok) p.resolve(reply.ids);
      else p.reject(new Error(`free-text search failed: ${reply.message}`));
    });
    w.on('error', (err) => {
      log.error('history.text_thread_failed', { error: err.message });
      if (worker === w) worker = null;
      failAll(err.message);
    });
    w.on('exit', (code) => {
      if (worker === w) worker = null;
      failAll(`exit code ${code}`);
    });
    // The server may stop while it waits for nothing but this thread.
    w.unref();
    worker = w;
    return w;
  };
  const ask = (request: TextRequest, w: Worker) =>
    new Promise<TextIds>((resolve, reject) => {
      pending.set(request.id, { resolve, reject });
      w.postMessage(request);
    });
  return {
    lookup: (scopeNo, months, needles) =>
      ask({ id: nextId++, op: 'lookup', scopeNo, months: [...months], needles: [...needles] }, started()),
    async close() {
      const w = worker;
      if (!w) return;
      worker = null;
      const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()));
      await ask({ id: nextId++, op: 'close' }, w).catch(() => undefined);
      await exited;
    },
  };
}

/** SQLite's TextIndex over a lookup: ids found by the text thread, a condition on those ids. */
export function sqliteTextIndex(lookup: TextLookup): TextIndex {
  return {
    needsIds: true,
    matchIds: (scopeNo, ranges, text) =>
      ranges.length === 0
        ? Promise.resolve(new Float64Array(0))
        : lookup.lookup(scopeNo, monthsOf(ranges), textNeedles(text)),
    condition(_text, ids): Expression<SqlBool> {
      if (!ids) throw new Error('SQLite free text is a condition on the ids its index found');
      return sql<SqlBool>`history_records.id in (select value from json_each(${JSON.stringify(Array.from(ids))}))`;
    },
  };
}
