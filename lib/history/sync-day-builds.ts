import 'server-only';
/**
 * The days being built (lib/history/store/history-store.ts buildDay): the pages a copy stages go into the
 * local history's data in the background, while the copy goes on with its next call. One build
 * per day at a time; a page staged meanwhile is taken by the same build (asked again, it runs
 * once more). A build that fails leaves its pages staged, and the copy's next step starts it again
 * (it adds only what is missing). Once a day is complete the planner's view of the copy is
 * refreshed.
 */
import { verifyHeld } from './sync-day-progress';
import type { HistoryIndex } from './history-index';
import type { Logger } from '../log';
import type { HistoryStore } from './store/history-store';

export interface DayBuildsDeps {
  history: Pick<HistoryStore, 'buildDay'>;
  index: Pick<HistoryIndex, 'invalidate'>;
  log: Logger;
}

const keyOf = (scope: string, day: string) => `${scope}\u0000${day}`;

export class DayBuilds {
  private readonly running = new Map<
    string,
    { scope: string; abort: AbortController; done: Promise<void>; again: boolean }
  >();
  private stopped = false;

  constructor(private readonly deps: DayBuildsDeps) {}

  /** Builds what the day has staged (once more, when it is being built already); `apiKey` names the account in the log. */
  start(scope: string, day: string, apiKey: string): void {
    const key = keyOf(scope, day);
    const current = this.running.get(key);
    if (current) {
      current.again = true;
      return;
    }
    if (this.stopped) return;
    const abort = new AbortController();
    const entry = { scope, abort, again: false, done: Promise.resolve() };
    entry.done = (async () => {
      try {
        do {
          entry.again = false;
          const built = await this.deps.history.buildDay(scope, day, abort.signal, verifyHeld);
          if (built) {
            this.deps.index.invalidate(scope);
            this.deps.log.info('history.day_complete', { account: apiKey, day, records: built.records });
          }
        } while (entry.again && !abort.signal.aborted);
      } catch (err) {
        this.deps.log.warn('history.build_failed', {
          account: apiKey,
          day,
          error: err instanceof Error ? err.message : String(err),
        });
      } finally {
        this.running.delete(key);
      }
    })();
    this.running.set(key, entry);
  }

  /** Builds what the day has staged unless it is being built already (a build a restart stopped). */
  resume(scope: string, day: string, apiKey: string): void {
    if (!this.running.has(keyOf(scope, day))) this.start(scope, day, apiKey);
  }

  /** Stops the scope's builds (its copy is being deleted) and waits for them to let go. */
  async cancel(scope: string): Promise<void> {
    const mine = [...this.running.values()].filter((r) => r.scope === scope);
    for (const r of mine) r.abort.abort();
    await Promise.all(mine.map((r) => r.done));
  }

  /** Resolves once no build runs (benchmarks and tests wait for a copy to be complete). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running.values()].map((r) => r.done));
  }

  /** Stops every build (shutdown): the slice being written finishes, the rest waits for the next start. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const r of this.running.values()) r.abort.abort();
    await this.idle();
  }
}
