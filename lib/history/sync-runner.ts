import 'server-only';
/**
 * Runs the local history's copies inside the server, from startup to shutdown: for every scope
 * whose copy is wanted, one worker (in one instance: it holds the scope's lease, renewed every step)
 * repeats sync steps (sync-step.ts) while there is something to copy and a call to copy it with;
 * a copy waiting for quota sleeps until the governor says the next call can go, one waiting for a
 * sign-in or the next settled day is looked at again on a heartbeat. No fixed pacing: with larger
 * limits it simply goes faster.
 */
import { BackgroundLoop } from '../background';
import { holdLease, leaseHolder } from '../background/server';
import type { LeaseStore } from '../background/server';
import type { HistoryIndex } from './history-index';
import { DayBuilds } from './sync-day-builds';
import { runSyncStep, type SyncDeps } from './sync-step';

/** How long a scope's lease lasts without renewal: a dead instance's copies move on within a minute. */
const LEASE_MS = 30_000;
const HEARTBEAT_MS = 30_000;

export interface SyncRunnerDeps extends Omit<SyncDeps, 'builds'> {
  leases: LeaseStore;
  /** Told when a day's copy is complete (what the planner answers from has changed). */
  index: Pick<HistoryIndex, 'invalidate'>;
}

const leaseOf = (scope: string) => `sync:${scope}`;

export class SyncRunner {
  private readonly holder = leaseHolder();
  private readonly workers = new Map<string, { abort: AbortController; done: Promise<void> }>();
  /** When a waiting scope is due to be looked at again. */
  private readonly dueAt = new Map<string, number>();
  private readonly loop: BackgroundLoop;
  /** The days read in full going into the local history's data (its copy goes on meanwhile). */
  readonly builds: DayBuilds;

  constructor(private readonly deps: SyncRunnerDeps) {
    this.builds = new DayBuilds({ history: deps.history, index: deps.index, log: deps.log });
    this.loop = new BackgroundLoop({
      heartbeatMs: HEARTBEAT_MS,
      tick: () => this.tick(),
      onTickError: (err) =>
        this.deps.log.warn('history.tick_failed', { error: err instanceof Error ? err.message : String(err) }),
      now: deps.now,
    });
  }

  start(): void {
    // The history writer's thread starts now rather than with the first day's first slice.
    void this.deps.history
      .warmUp()
      .catch((err: unknown) =>
        this.deps.log.warn('history.writer_failed', { error: err instanceof Error ? err.message : String(err) }),
      );
    this.loop.start();
  }

  /** Stops scheduling; a page being read is stored first (its call is paid for); days being built stop after their slice. */
  async stop(graceMs?: number): Promise<void> {
    await this.loop.stop([...this.workers.values()], 'sync runner stopped', graceMs);
    await this.builds.stop();
  }

  /** Whether the runner's loop runs (the readiness check). */
  alive(): boolean {
    return this.loop.alive(this.deps.now());
  }

  /** Something changed (the copy turned on, a sign-in, a scope deleted): look again now. */
  kick(scope?: string): void {
    if (scope) this.dueAt.delete(scope);
    this.loop.kick();
  }

  /** Stops the scope's worker here (its copy was paused or deleted). */
  cancel(scope: string): void {
    this.workers.get(scope)?.abort.abort(new Error('sync cancelled'));
  }

  /** Stops everything the scope's copy does here — its worker, its days being built — and waits for it (before the copy is deleted). */
  async forget(scope: string): Promise<void> {
    const worker = this.workers.get(scope);
    this.cancel(scope);
    await worker?.done;
    await this.builds.cancel(scope);
  }

  private async tick(): Promise<void> {
    if (this.loop.stopped) return;
    const now = this.deps.now();
    let wakeAt = Number.POSITIVE_INFINITY;
    for (const settings of await this.deps.history.enabledScopes()) {
      if (this.loop.stopped) return;
      const scope = settings.scope;
      if (this.workers.has(scope)) continue;
      const due = this.dueAt.get(scope);
      if (due !== undefined && due > now) {
        wakeAt = Math.min(wakeAt, due);
        continue;
      }
      if (!(await this.deps.leases.tryAcquire(leaseOf(scope), this.holder, now, LEASE_MS))) continue;
      // Stopped while the lease was being taken: the stop drains only the workers it saw.
      if (this.loop.stopped) {
        await this.deps.leases.release(leaseOf(scope), this.holder).catch(() => undefined);
        return;
      }
      this.startWorker(scope);
    }
    this.loop.wakeAt(wakeAt);
  }

  private startWorker(scope: string): void {
    const abort = new AbortController();
    const done = (async () => {
      try {
        // Renewed once a third of the lease has passed, not before every page (hold-lease.ts).
        const renewal = { at: Number.NEGATIVE_INFINITY };
        for (;;) {
          const outcome = await holdLease(
            this.deps.leases,
            { resource: leaseOf(scope), holder: this.holder, ttlMs: LEASE_MS },
            this.deps.now,
            abort.signal,
            (signal) => runSyncStep({ ...this.deps, builds: this.builds }, scope, signal),
            renewal,
          );
          if (!outcome) break;
          if (outcome.next === 'continue' && !abort.signal.aborted && !this.loop.stopped) continue;
          if (outcome.next === 'wait') this.dueAt.set(scope, outcome.until ?? this.deps.now() + HEARTBEAT_MS);
          break;
        }
      } catch (err) {
        this.deps.log.error('history.step_failed', { error: err instanceof Error ? err.message : String(err) });
        this.dueAt.set(scope, this.deps.now() + 60_000);
      } finally {
        this.workers.delete(scope);
        // Waiting, a lease is not held: any instance may take the copy up when it is due.
        await this.deps.leases.release(leaseOf(scope), this.holder).catch(() => undefined);
        this.kick();
      }
    })();
    this.workers.set(scope, { abort, done });
  }
}
