import 'server-only';
/**
 * The one way to the local history's data writes (./writes.ts): one at a time, in the order
 * asked. What only speeds searches up waits until nothing else does: SQLite's text index takes the
 * records stored since it last did, then day packs are built. Where they run is the backend's
 * business: on a thread of their own (./writer-thread.ts, the server's: syncing a day of
 * tens of thousands of records, its text index and rollups takes seconds of work that would
 * otherwise hold every request), or on the caller's thread (`inlineBackend`: tests).
 */
import { log } from '../../log';
import type { HistoryWrites } from './writes';

export type WriteOp = keyof HistoryWrites;

/** Runs one write (its arguments cloned as for a thread's message) and answers its result. */
export interface WriteBackend {
  run(op: WriteOp, args: unknown[]): Promise<unknown>;
  /** Gets ready ahead of the first write (a thread starts); resolves once ready. */
  warmUp(): Promise<void>;
  close(): Promise<void>;
}

export interface HistoryWriter extends HistoryWrites {
  /** Builds the day's pack once no other write waits (a pack only speeds searches up). */
  buildPackWhenIdle(scope: string, day: string): void;
  /** Resolves once every write asked for so far is done, packs included. */
  idle(): Promise<void>;
  /** Gets the backend ready ahead of the first write; resolves once it is. */
  warmUp(): Promise<void>;
  /** Finishes the write under way, drops the packs not begun, and closes the backend. */
  close(): Promise<void>;
}

/** Records put into the text index per write while it catches up: about a tenth of a second of work. */
const TEXT_PER_WRITE = 5_000;

interface Job {
  op: WriteOp;
  args: unknown[];
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

export function inlineBackend(writes: HistoryWrites): WriteBackend {
  return {
    run: (op, args) => (writes[op] as (...a: unknown[]) => Promise<unknown>)(...args),
    warmUp: async () => undefined,
    close: async () => undefined,
  };
}

export function createHistoryWriter(backend: WriteBackend): HistoryWriter {
  const queue: Job[] = [];
  /** Packs waiting for a quiet moment, by scope and day (asked twice, built once). */
  const packs = new Map<string, { scope: string; day: string }>();
  /** Records were stored since the text index last caught up. */
  let textBehind = false;
  let running: Promise<void> | null = null;
  let closed = false;
  const waiters: (() => void)[] = [];

  const quietly = (what: string) => (err: unknown) =>
    log.warn(`history.${what}_failed`, { error: err instanceof Error ? err.message : String(err) });

  const next = (): Job | undefined => {
    const job = queue.shift();
    if (job) return job;
    if (textBehind) {
      return {
        op: 'indexPendingText',
        args: [TEXT_PER_WRITE],
        resolve: (indexed) => {
          if ((indexed as number) < TEXT_PER_WRITE) textBehind = false;
        },
        // Not tried again until more records come (tried at once, a failure would repeat forever);
        // searches read the records the index does not hold directly meanwhile.
        reject: (err) => {
          textBehind = false;
          quietly('text_index')(err);
        },
      };
    }
    const first = packs.entries().next();
    if (first.done) return undefined;
    packs.delete(first.value[0]);
    const { scope, day } = first.value[1];
    return {
      op: 'buildPack',
      args: [scope, day],
      resolve: () => undefined,
      reject: quietly('pack'),
    };
  };

  const drain = async () => {
    for (let job = next(); job; job = closed ? undefined : next()) {
      try {
        const value = await backend.run(job.op, job.args);
        // Set once the records are in (not when asked): a catching-up write that ran before them saw none of them.
        if (job.op === 'addRecords' || job.op === 'addStagedPages') textBehind = true;
        job.resolve(value);
      } catch (err) {
        job.reject(err);
      }
    }
    running = null;
    for (const wake of waiters.splice(0)) wake();
  };

  const enqueue = (op: WriteOp, args: unknown[]): Promise<never> =>
    new Promise((resolve, reject) => {
      if (closed) {
        reject(new Error('The local history is closed.'));
        return;
      }
      queue.push({ op, args, resolve: resolve as (v: unknown) => void, reject });
      running ??= drain();
    });

  return {
    addRecords: (scope, rows) => enqueue('addRecords', [scope, rows]),
    addStagedPages: (scope, day, throughSeq) => enqueue('addStagedPages', [scope, day, throughSeq]),
    finishDay: (scope, day) => enqueue('finishDay', [scope, day]),
    buildPack: (scope, day) => enqueue('buildPack', [scope, day]),
    indexPendingText: (limit) => enqueue('indexPendingText', [limit]),
    deleteScope: (scope) => {
      for (const [key, p] of packs) if (p.scope === scope) packs.delete(key);
      return enqueue('deleteScope', [scope]);
    },
    deleteBefore: (scope, day) => {
      for (const [key, p] of packs) if (p.scope === scope && p.day < day) packs.delete(key);
      return enqueue('deleteBefore', [scope, day]);
    },
    buildPackWhenIdle(scope, day) {
      if (closed) return;
      packs.set(`${scope}\u0000${day}`, { scope, day });
      running ??= drain();
    },
    idle: () => (running ? new Promise<void>((resolve) => waiters.push(resolve)) : Promise.resolve()),
    warmUp: () => (closed ? Promise.resolve() : backend.warmUp()),
    async close() {
      closed = true;
      packs.clear();
      for (const job of queue.splice(0)) job.reject(new Error('The local history is closed.'));
      await running;
      await backend.close();
    },
  };
}
