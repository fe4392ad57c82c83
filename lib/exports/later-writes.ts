import 'server-only';
/**
 * Writes an export leaves for later. The dashboard's copy of a fetched page (its page cache) is not
 * needed before the next upstream call — only the job's own record is (keep-upstream-page.ts) — so instead of
 * delaying that call, it is written while the call is in flight, when the server would otherwise
 * only wait. Each write handles its own failure (a lost copy costs a later search one call).
 */
export class LaterWrites {
  private pending: (() => Promise<void>)[] = [];

  add(write: () => Promise<void>): void {
    this.pending.push(write);
  }

  /** Runs what is pending, oldest first. */
  async flush(): Promise<void> {
    while (this.pending.length > 0) {
      const writes = this.pending;
      this.pending = [];
      for (const write of writes) await write();
    }
  }

  /**
   * Runs what is pending once the current turn of the event loop is over: after the upstream call
   * just started has made its own writes (the governor's ledger) and gone out, not before them.
   */
  flushSoon(): Promise<void> {
    if (this.pending.length === 0) return Promise.resolve();
    return new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.flush());
  }
}
