/**
 * The schedule of a background runner (exports, the local history's copy): a heartbeat, a kick
 * that coalesces into one pass of `tick` soon after, a timer for the next moment something is due,
 * and a stop that lets steps in flight finish (drain-workers.ts). The runners keep what differs —
 * which work exists, leases, what a worker does — and ask `stopped` before each new step.
 */
import { drainWorkers, type Worker } from './drain-workers';

export interface BackgroundLoopOptions {
  heartbeatMs: number;
  /** One pass over the work: start workers for what is due, say when to look again (wakeAt). */
  tick: () => Promise<void>;
  onTickError: (err: unknown) => void;
  now: () => number;
}

export class BackgroundLoop {
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerAt = Number.POSITIVE_INFINITY;
  private kicked = false;
  /** A kick came while a pass ran: one more pass after it. */
  private again = false;
  private ticking: Promise<void> | undefined;
  private halted = false;
  /** When the last pass ended (ms), whatever it found; null before the first. */
  private lastTickAt: number | null = null;
  private startedAt: number | null = null;

  constructor(private readonly opts: BackgroundLoopOptions) {}

  get stopped(): boolean {
    return this.halted;
  }

  start(): void {
    if (this.heartbeat) return;
    this.halted = false;
    this.startedAt = this.opts.now();
    this.heartbeat = setInterval(() => this.kick(), this.opts.heartbeatMs);
    // Neither timer may keep a finished test or a stopping server alive.
    this.heartbeat.unref?.();
    this.kick();
  }

  /**
   * Something changed: one pass soon (kicks in the meantime are one). Passes never overlap: a kick
   * while one runs asks for another after it. Two at once would each find the same work free and,
   * holding the same lease holder, both start a worker on it (two steps of one export writing the
   * same page).
   */
  kick(): void {
    if (this.halted) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    if (this.kicked) return;
    this.kicked = true;
    setTimeout(() => {
      this.kicked = false;
      this.pass();
    }, 0).unref?.();
  }

  private pass(): void {
    if (this.halted) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = this.opts
      .tick()
      .catch(this.opts.onTickError)
      .finally(() => {
        this.lastTickAt = this.opts.now();
        this.ticking = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /**
   * Whether the loop runs: started, not stopped, and a pass has ended within three heartbeats (a
   * pass stuck on a store that never answers, or a loop that died, is not alive). The readiness
   * check asks it.
   */
  alive(now: number): boolean {
    if (this.startedAt === null || this.halted) return false;
    const since = this.lastTickAt ?? this.startedAt;
    return now - since < 3 * this.opts.heartbeatMs;
  }

  /** A pass at `at` (epoch ms; Infinity: none), replacing the one planned. */
  wakeAt(at: number): void {
    if (at === this.timerAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = at;
    if (!Number.isFinite(at)) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.timerAt = Number.POSITIVE_INFINITY;
        this.kick();
      },
      Math.max(0, at - this.opts.now()),
    );
    this.timer.unref?.();
  }

  /** No new pass or step; steps in flight finish (their calls are paid for), a stuck one is aborted after a grace. */
  async stop(workers: readonly Worker[], reason: string, graceMs?: number): Promise<void> {
    this.halted = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    this.wakeAt(Number.POSITIVE_INFINITY);
    await drainWorkers(workers, reason, graceMs);
    await this.ticking;
  }
}
