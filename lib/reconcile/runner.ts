import 'server-only';
/**
 * Runs reconciliations inside the server process, from startup to shutdown, as the export runner
 * runs exports (lib/exports/runner.ts):
 *  - one instance at a time works on a job: it holds the job's lease and renews it while it works;
 *    when an instance dies its lease expires and another instance's heartbeat takes the job over
 *    where the store says it stopped;
 *  - per account, one job at a time in an instance, oldest first (they share the account's quota);
 *  - each job step by step (./job-step.ts): everything a call answered is stored before the next;
 *  - a job waiting for quota is asked about again on every heartbeat; one waiting for a sign-in is
 *    looked at again on a heartbeat and whenever its account uses the reconciliations API;
 *  - jobs past their retention are deleted.
 */
import { BackgroundLoop, MAX_FAILURES } from '../background';
import { holdLease, leaseHolder, type LeaseStore } from '../background/server';
import { retentionEnd } from '../exports/server';
import { runReconcileStep, type StepDeps } from './job-step';
import { summarizeJob } from './job-summary';

/** How long a job's lease lasts without renewal: a dead instance's jobs move on within a minute. */
export const LEASE_MS = 30_000;
const HEARTBEAT_MS = 15_000;
const PRUNE_EVERY_MS = 10 * 60_000;
const AFTER_CRASH_RETRY_MS = 60_000;

export interface RunnerDeps extends StepDeps {
  leases: LeaseStore;
}

interface Worker {
  jobId: string;
  abort: AbortController;
  done: Promise<void>;
}

const leaseOf = (jobId: string) => `reconcile:${jobId}`;

export class ReconcileRunner {
  private readonly holder = leaseHolder();
  private readonly workers = new Map<string, Worker>();
  private readonly loop: BackgroundLoop;
  private lastPrune = Number.NEGATIVE_INFINITY;

  constructor(private readonly deps: RunnerDeps) {
    this.loop = new BackgroundLoop({
      heartbeatMs: HEARTBEAT_MS,
      tick: () => this.tick(),
      onTickError: (err) =>
        this.deps.log.warn('reconcile.tick_failed', { error: err instanceof Error ? err.message : String(err) }),
      now: deps.now,
    });
  }

  /** Starts the heartbeat and picks up whatever the store holds (a restart resumes here). */
  start(): void {
    this.loop.start();
  }

  /**
   * Stops scheduling; steps in flight finish (their jobs resume at the next start, here or
   * elsewhere), and one still busy after `graceMs` is aborted. Each worker gives its lease back as it ends.
   */
  stop(graceMs?: number): Promise<void> {
    return this.loop.stop([...this.workers.values()], 'reconcile runner stopped', graceMs);
  }

  /** Whether the runner's loop runs (the readiness check, lib/root/readiness.ts). */
  alive(): boolean {
    return this.loop.alive(this.deps.now());
  }

  /** Something changed (a job started or deleted, an account came back): look again soon. */
  kick(): void {
    this.loop.kick();
  }

  /** Aborts the job's call in flight, if it runs here (it was deleted). */
  cancel(jobId: string): void {
    for (const w of this.workers.values()) if (w.jobId === jobId) w.abort.abort(new Error('reconciliation deleted'));
  }

  /** Whether a worker of this instance is running this job now (tests). */
  isRunning(jobId: string): boolean {
    return [...this.workers.values()].some((w) => w.jobId === jobId);
  }

  /** When the account's next background call can go as the governor sees it now (never later than `stored`). */
  private async quotaFreesAt(account: string, stored: number): Promise<number> {
    const next = await this.deps.gateway.nextCallAt(account, 'export');
    return Math.min(stored, Number.isFinite(next.at) ? next.at : stored);
  }

  private async tick(): Promise<void> {
    if (this.loop.stopped) return;
    const { store, leases } = this.deps;
    const now = this.deps.now();
    if (now - this.lastPrune >= PRUNE_EVERY_MS) {
      this.lastPrune = now;
      await this.prune(now).catch((err: unknown) =>
        this.deps.log.warn('reconcile.prune_failed', { error: err instanceof Error ? err.message : String(err) }),
      );
    }
    let wakeAt = Number.POSITIVE_INFINITY;
    const seen = new Set<string>();
    for (const job of await store.activeJobs()) {
      if (this.loop.stopped) return;
      if (seen.has(job.account)) continue;
      seen.add(job.account);
      if (this.workers.has(job.account)) continue;
      if (job.state === 'waiting') {
        // A wait for quota is the governor's guess at the time: asked again, it may have come sooner.
        const until =
          job.waitingFor === 'quota' && job.waitingUntil !== null && job.waitingUntil > now
            ? await this.quotaFreesAt(job.account, job.waitingUntil)
            : job.waitingUntil;
        if (until !== null && until > now) {
          wakeAt = Math.min(wakeAt, until);
          continue;
        }
        // Waiting for a sign-in: nothing to do until a session exists (the heartbeat looks again).
        if (
          until === null &&
          !(await this.deps.vault.liveSession(job.account, now, {
            preferSid: job.sid,
            createdAfter: job.signInNeededSince,
          }))
        ) {
          seen.delete(job.account);
          continue;
        }
      }
      // Another instance works on it: leave it (and the account's later jobs) to that instance.
      if (!(await leases.tryAcquire(leaseOf(job.id), this.holder, now, LEASE_MS))) continue;
      // Stopped while the lease was being taken: the stop drains only the workers it saw.
      if (this.loop.stopped) {
        await leases.release(leaseOf(job.id), this.holder).catch(() => undefined);
        return;
      }
      this.startWorker(job.account, job.id);
    }
    this.loop.wakeAt(wakeAt);
  }

  private startWorker(account: string, jobId: string): void {
    const abort = new AbortController();
    const done = (async () => {
      try {
        const renewal = { at: this.deps.now() };
        for (;;) {
          const outcome = await holdLease(
            this.deps.leases,
            { resource: leaseOf(jobId), holder: this.holder, ttlMs: LEASE_MS },
            this.deps.now,
            abort.signal,
            (signal) => runReconcileStep(this.deps, jobId, signal),
            renewal,
          );
          if (!outcome || outcome.next !== 'continue' || abort.signal.aborted || this.loop.stopped) break;
        }
      } catch (err) {
        await this.afterCrash(jobId, err).catch(() => undefined);
      } finally {
        this.workers.delete(account);
        await this.deps.leases.release(leaseOf(jobId), this.holder).catch(() => undefined);
        this.kick();
      }
    })();
    this.workers.set(account, { jobId, abort, done });
  }

  /** A step threw (a store error): keep what was stored and try again in a minute, six times at most. */
  private async afterCrash(jobId: string, err: unknown): Promise<void> {
    this.deps.log.error('reconcile.step_failed', {
      job: jobId,
      error: err instanceof Error ? err.message : String(err),
    });
    const { store } = this.deps;
    const job = await store.getJob(jobId);
    if (!job || (job.state !== 'queued' && job.state !== 'running' && job.state !== 'waiting')) return;
    const now = this.deps.now();
    job.failures += 1;
    job.updatedAt = now;
    if (job.failures > MAX_FAILURES) {
      Object.assign(job, {
        state: 'failed',
        finishedAt: now,
        expiresAt: retentionEnd(now, this.deps.config),
        waitingUntil: null,
        message: { code: 'failed-server' },
        summary: await summarizeJob(store, job),
      });
    } else {
      Object.assign(job, {
        state: 'waiting',
        waitingUntil: now + AFTER_CRASH_RETRY_MS,
        message: { code: 'server-problem', until: new Date(now + AFTER_CRASH_RETRY_MS).toISOString() },
      });
    }
    await store.saveJob(job);
  }

  private async prune(now: number): Promise<void> {
    for (const id of await this.deps.store.expiredJobs(now)) {
      await this.deps.store.deleteJob(id);
      this.deps.log.info('reconcile.expired', { job: id });
    }
  }
}
