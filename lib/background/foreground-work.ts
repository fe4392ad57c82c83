import 'server-only';
/**
 * Work a person is waiting for (an export's file, before the export says done) against work nobody
 * waits for (copying a complete result into the local history). Both run in short turns of the
 * event loop; without this they would take turns, and a finished export's file would wait on a
 * copy that can as well come after it. The background work asks `idle()` before each of its steps
 * and waits while foreground work runs.
 */
export class ForegroundWork {
  private running = 0;
  private waiting: (() => void)[] = [];

  /** Runs `work` as foreground work. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    this.running += 1;
    try {
      return await work();
    } finally {
      this.running -= 1;
      if (this.running === 0) for (const resume of this.waiting.splice(0)) resume();
    }
  }

  /** Resolves at once when no foreground work runs, else when the last of it ends. */
  idle(): Promise<void> {
    return this.running === 0 ? Promise.resolve() : new Promise((resolve) => this.waiting.push(resolve));
  }
}
