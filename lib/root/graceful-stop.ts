import 'server-only';
/**
 * A stop (SIGTERM from a supervisor or a deploy, SIGINT from a terminal) lets background work finish
 * the step it is in before the process ends: an export's or the copy's call in flight is paid for,
 * and its page is stored rather than asked again after the restart. Next.js's own handler ends the
 * process as soon as its HTTP server has closed, mid-call; it stands aside when
 * NEXT_MANUAL_SIG_HANDLE is set, which every launcher here sets (`npm start`, the demos, the e2e
 * servers). Requests keep being served while the steps finish (a few seconds; at most the runners'
 * grace, lib/background/drain-workers.ts).
 */
import { log } from '../log';

export interface StopDeps {
  stopBackground(): Promise<void>;
  /** Process-like: where the signals come from, and how it ends. */
  on(signal: 'SIGTERM' | 'SIGINT', listener: () => void): void;
  exit(code: number): void;
  /** Whether Next.js left the signals to us (NEXT_MANUAL_SIG_HANDLE). */
  manual: boolean;
}

export function installGracefulStop(deps: StopDeps): void {
  if (!deps.manual) {
    log.warn('shutdown.unmanaged', {
      hint: 'Next.js ends the process on SIGTERM without waiting for background calls in flight (each is asked again after the restart). Start with NEXT_MANUAL_SIG_HANDLE=true, as npm start does.',
    });
    return;
  }
  let stopping = false;
  const stop = (signal: 'SIGTERM' | 'SIGINT') => {
    // A second signal (a terminal's Ctrl-C sent twice) does not start another stop.
    if (stopping) return;
    stopping = true;
    log.info('shutdown.started', { signal });
    void deps
      .stopBackground()
      .catch((err: unknown) =>
        log.warn('shutdown.background_failed', { error: err instanceof Error ? err.message : String(err) }),
      )
      .then(() => {
        log.info('shutdown.done', { signal });
        // As a signal ends a process: 128 + its number.
        deps.exit(signal === 'SIGTERM' ? 143 : 130);
      });
  };
  deps.on('SIGTERM', () => stop('SIGTERM'));
  deps.on('SIGINT', () => stop('SIGINT'));
}
