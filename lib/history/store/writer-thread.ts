import 'server-only';
/**
 * The history writer's backend on a worker thread (./writer-worker.ts) with a database
 * connection of its own: the writes of the local history — a synced day's records, their text
 * index and rollups, a day pack — take their CPU time there, and the thread that answers requests
 * only sends them and waits. One write at a time (./writer.ts queues them); a write's
 * arguments and result travel as messages (structured clones).
 *
 * The thread starts at the first write (or when warmed up: the sync runner's start), and again
 * after one that ended it (a crash fails the writes in flight with a clear error; a retry gets a
 * new thread).
 *
 * Loading it: `next build` bundles the worker from `new Worker(new URL(…, import.meta.url))`. Run
 * from the TypeScript sources (tsx, vitest: no NEXT_RUNTIME), the worker registers tsx itself before requiring its
 * entry (a worker does not inherit the parent's loader), with the `react-server` condition that
 * makes `server-only` importable, as the server's bundles do.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { log } from '../../log';
import type { WriteBackend, WriteOp } from './writer';
import { errorOf, type WriterFailure } from './writer-failure';

/**
 * Where the worker's connection goes: the history file (SQLite; with the store's file, `storeFile`,
 * where the pages being synced are staged), or the database (PostgreSQL).
 */
export type WriterTarget =
  { dialect: 'sqlite'; file: string; storeFile: string } | { dialect: 'postgres'; url: string };

type Request = { op: WriteOp; args: unknown[] } | { op: 'ready' } | { op: 'close' };
export type WriterRequest = Request & { id: number };
export type WriterReply = { id: number; ok: true; value: unknown } | ({ id: number; ok: false } & WriterFailure);

/** How long a closing worker may take to finish its write before it is stopped. */
const CLOSE_WAIT_MS = 30_000;

function spawn(target: WriterTarget): Worker {
  // From the TypeScript sources (tsx, vitest: no Next.js runtime), by path rather than
  // `new URL(…, import.meta.url)`, which the build would take for an asset to copy.
  if (!process.env.NEXT_RUNTIME) {
    const entry = path.join(path.dirname(fileURLToPath(import.meta.url)), 'writer-worker.ts');
    return new Worker(`require('tsx/cjs/api').register(); require(${JSON.stringify(entry)});`, {
      eval: true,
      execArgv: ['--conditions=react-server'],
      workerData: target,
    });
  }
  return new Worker(new URL('./writer-worker.ts', import.meta.url), { workerData: target });
}

export function threadBackend(target: WriterTarget): WriteBackend {
  let worker: Worker | null = null;
  let nextId = 1;
  const pending = new Map<number, { resolve(value: unknown): void; reject(err: Error): void }>();

  const failAll = (why: string) => {
    for (const [id, p] of pending) {
      pending.delete(id);
      p.reject(
        new Error(`The local history's writer stopped (${why}); the write did not finish and can be tried again.`),
      );
    }
  };

  const started = (): Worker => {
    if (worker) return worker;
    const w = spawn(target);
    w.on('message', (reply: WriterReply) => {
      const p = pending.get(reply.id);
      if (!p) return;
      pending.delete(reply.id);
      if (reply.ok) p.resolve(reply.value);
      else p.reject(errorOf(reply));
    });
    w.on('error', (err) => {
      log.error('history.writer_failed', { error: err.message });
      if (worker === w) worker = null;
      failAll(err.message);
    });
    w.on('exit', (code) => {
      if (worker === w) worker = null;
      failAll(`exit code ${code}`);
    });
    worker = w;
    return w;
  };

  const ask = (request: Request, w: Worker): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      w.postMessage({ ...request, id });
    });

  return {
    run: (op, args) => ask({ op, args }, started()),
    // Answered once the thread has opened its connection (its requests are taken in order).
    warmUp: async () => {
      await ask({ op: 'ready' }, started());
    },
    async close() {
      const w = worker;
      if (!w) return;
      worker = null;
      const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()));
      const timer = setTimeout(() => void w.terminate(), CLOSE_WAIT_MS);
      await ask({ op: 'close' }, w).catch(() => undefined);
      await exited;
      clearTimeout(timer);
    },
  };
}
