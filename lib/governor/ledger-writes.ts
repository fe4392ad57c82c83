/**
 * Noting in the ledger how a call ended. The call's answer is its caller's whatever happens here:
 * a ledger that cannot be written now (the store is down) is written again in the background, with
 * the answer's time, so the call is counted from when it came once it can be. Thrown away, the
 * answer would be paid for again.
 */
import type { GovernorBackend } from './backend';

/** Tries of a ledger write that failed: 1 s, 2 s, 4 s … then every minute, about 15 minutes in all. */
const LEDGER_RETRIES = 20;

export class LedgerWrites {
  private readonly retries = new Set<ReturnType<typeof setTimeout>>();
  private closed = false;

  constructor(
    private readonly backend: Pick<GovernorBackend, 'finish' | 'withdraw'>,
    private readonly opts: {
      now: () => number;
      /** Told when a write failed (it is tried again); for the log. */
      onFailed?: (err: unknown) => void;
      /** Told when a write tried again went through: the windows may have changed. */
      onWritten: () => void;
    },
  ) {}

  /** Notes how call `id` ended (`null`: never sent, taken out). */
  async settle(id: number, outcome: string | null): Promise<void> {
    const at = this.opts.now();
    const write = () => (outcome === null ? this.backend.withdraw(id) : this.backend.finish(id, outcome, at));
    try {
      await write();
    } catch (err) {
      this.opts.onFailed?.(err);
      this.writeLater(write, 1);
    }
  }

  /** Stops trying the writes still waiting (tests, shutdown). */
  close(): void {
    this.closed = true;
    for (const timer of this.retries) clearTimeout(timer);
    this.retries.clear();
  }

  /** Tries a ledger write again, later each time (1 s, 2 s, … 1 min), for about a quarter of an hour. */
  private writeLater(write: () => Promise<void>, attempt: number): void {
    if (attempt > LEDGER_RETRIES || this.closed) return;
    const timer = setTimeout(
      () => {
        this.retries.delete(timer);
        write().then(
          () => this.opts.onWritten(),
          () => this.writeLater(write, attempt + 1),
        );
      },
      Math.min(60_000, 1000 * 2 ** (attempt - 1)),
    );
    timer.unref?.();
    this.retries.add(timer);
  }
}
