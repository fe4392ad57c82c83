import 'server-only';
/**
 * A stop (SIGTERM from a supervisor or a deploy, SIGINT from a terminal), bounded: the process is
 * gone within STOP_DEADLINE_MS (10 s, what orchestrators wait before SIGKILL) even when the upstream
 * hangs. Meanwhile:
 *  - readiness answers 503 `stopping` (lib/root/readiness.ts), and the HTTP server takes no new
 *    connection; the requests in flight are answered (lib/http/server-drain.ts);
 *  - background work finishes the step it is in — an export's or the copy's call in flight is paid
 *    for, so its page is stored rather than asked again after the restart — and a step still busy
 *    after the grace (an upstream that does not answer) is aborted; each worker gives its lease
 *    back as it ends, so another instance takes the work over at once instead of when the lease
 *    would expire;
 *  - then the store is closed (the history writer finishes its slice; SQLite's data folder is freed).
 * Next.js's own handler ends the process as soon as its HTTP server has closed, mid-call; it stands
 * aside when NEXT_MANUAL_SIG_HANDLE is set, which every launcher here sets.
 */
import { log } from '../log';

/** The process ends by then, whatever is still running. */
export const STOP_DEADLINE_MS = 10_000;
/** How long requests in flight and background steps get before they are cut (the rest: closing the store). */
export const STOP_GRACE_MS = 6_000;

export interface StopDeps {
  /** Stops background work: steps in flight get `graceMs`, then are aborted; leases are given back. */
  stopBackground(graceMs: number): Promise<void>;
  /** Stops taking requests and answers those in flight within `graceMs`; how many were cut. */
  drainRequests(graceMs: number): Promise<number>;
  /** Closes the store. */
  close(): Promise<void>;
  /** Process-like: where the signals come from, and how it ends. */
  on(signal: 'SIGTERM' | 'SIGINT', listener: () => void): void;
  exit(code: number): void;
  /** Whether Next.js left the signals to us (NEXT_MANUAL_SIG_HANDLE). */
  manual: boolean;
  deadlineMs?: number;
  graceMs?: number;
}

const STOPPING_KEY = Symbol.for('sms-dashboard.stopping');
const holder = globalThis as unknown as { [STOPPING_KEY]?: true };

/** Whether this process is stopping (readiness answers 503). */
export function isStopping(): boolean {
  return holder[STOPPING_KEY] === true;
}

const describe = (err: unknown) => (err instanceof Error ? err.message : String(err));

export function installGracefulStop(deps: StopDeps): void {
  if (!deps.manual) {
    log.warn('shutdown.unmanaged', {
      hint: 'Next.js ends the process on SIGTERM without waiting for background calls in flight (each is asked again after the restart). Start with NEXT_MANUAL_SIG_HANDLE=true, as npm start does.',
    });
    return;
  }
  const deadlineMs = deps.deadlineMs ?? STOP_DEADLINE_MS;
  const graceMs = deps.graceMs ?? STOP_GRACE_MS;
  let stopping = false;
  const stop = (signal: 'SIGTERM' | 'SIGINT') => {
    // A second signal (a terminal's Ctrl-C sent twice) does not start another stop.
    if (stopping) return;
    stopping = true;
    holder[STOPPING_KEY] = true;
    const started = performance.now();
    // As a signal ends a process: 128 + its number.
    const code = signal === 'SIGTERM' ? 143 : 130;
    log.info('shutdown.started', { signal });
    // Not unref'd: it also keeps the process alive while the stop waits for threads that do not
    // (the history writer's), which would otherwise let it end mid-stop with exit code 0.
    const deadline = setTimeout(() => {
      log.warn('shutdown.deadline', { signal, ms: deadlineMs });
      deps.exit(code);
    }, deadlineMs);
    void (async () => {
      const [cut] = await Promise.all([
        deps.drainRequests(graceMs).catch((err: unknown) => {
          log.warn('shutdown.requests_failed', { error: describe(err) });
          return 0;
        }),
        deps
          .stopBackground(graceMs)
          .catch((err: unknown) => log.warn('shutdown.background_failed', { error: describe(err) })),
      ]);
      await deps.close().catch((err: unknown) => log.warn('shutdown.close_failed', { error: describe(err) }));
      clearTimeout(deadline);
      log.info('shutdown.done', { signal, ms: Math.round(performance.now() - started), requestsCut: cut });
      deps.exit(code);
    })();
  };
  deps.on('SIGTERM', () => stop('SIGTERM'));
  deps.on('SIGINT', () => stop('SIGINT'));
}
