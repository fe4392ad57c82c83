import 'server-only';
/**
 * Runs export jobs inside the server process, from startup (instrumentation.ts) to shutdown:
 *  - one instance at a time works on a job: it holds the job's lease (lib/background/lease-store.ts) and
 *    renews it while it works (lib/background/hold-lease.ts); when an instance dies, its leases expire and another instance's
 *    heartbeat takes the job over where the store says it stopped;
 *  - per account, one job at a time in an instance, oldest first (they share the account's quota);
 *  - each job step by step (job-step.ts), so everything it learns is stored before the next call;
 *  - a job waiting for the upstream's Retry-After or a backoff sleeps until its `waitingUntil`; one
 *    waiting for quota is asked about again on every heartbeat (the governor may let it go sooner:
 *    limits raised at a restart); one waiting for a sign-in is looked at again on a heartbeat and
 *    whenever its account uses the exports API;
 *  - finished jobs and their files past their retention are deleted.
 * A restarted server finds the queued, running and waiting jobs in the store and carries on.
 */
import { msg } from '../i18n/message';
import { BackgroundLoop } from '../background';
import { holdLease, leaseHolder } from '../background/server';
import type { LeaseStore } from '../background/server';
import { retentionEnd } from './job-record';
import { MAX_FAILURES } from '../background';
import { runJobStep, type StepDeps } from './job-step';
import { LaterWrites } from './later-writes';
import { isStoreBlocked, isStoreFull } from '../db/unavailable';

/** How long a job's lease lasts without renewal: a dead instance's jobs move on within a minute. */
export const LEASE_MS = 30_000;
const HEARTBEAT_MS = 15_000;
const PRUNE_EVERY_MS = 10 * 60_000;
const AFTER_CRASH_RETRY_MS = 60_000;
/** A store that takes no writes now (its disk full, out of reach) is asked again this soon. */
const STORE_BLOCKED_RETRY_MS = 15_000;

export interface RunnerDeps extends StepDeps {
  leases: LeaseStore;
}

interface Worker {
  jobId: string;
  abort: AbortController;
  done: Promise<void>;
}

const leaseOf = (jobId: string) => `export:${jobId}`;

export class ExportRunner {
  private readonly holder = leaseHolder();
  private readonly workers = new Map<string, Worker>();
  /** Jobs whose store could not be written (a full disk): not tried again before then, whatever the store says. */
  private readonly blockedUntil = new Map<string, number>();
  private readonly loop: BackgroundLoop;
  private lastPrune = Number.NEGATIVE_INFINITY;

  constructor(private readonly deps: RunnerDeps) {
    this.loop = new BackgroundLoop({
      heartbeatMs: HEARTBEAT_MS,
      tick: () => this.tick(),
      onTickError: (err) =>
        this.deps.log.warn('export.tick_failed', { error: err instanceof Error ? err.message : String(err) }),
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
    return this.loop.stop([...this.workers.values()], 'export runner stopped', graceMs);
  }

  /** Whether the runner's loop runs (the readiness check). */
  alive(): boolean {
    return this.loop.alive(this.deps.now());
  }

  /** Something changed (a job created, cancelled, an account came back): look again soon. */
  kick(): void {
    this.loop.kick();
  }

  /** Aborts the job's call in flight, if it runs here; its state is already `cancelled` in the store. */
  cancel(jobId: string): void {
    for (const w of this.workers.values()) if (w.jobId === jobId) w.abort.abort(new Error('export cancelled'));
  }

  /** Whether a worker of this instance is running this job now (tests). */
  isRunning(jobId: string): boolean {
    return [...this.workers.values()].some((w) => w.jobId === jobId);
  }

  /** When the account's next export call can go as the governor sees it now (never later than `stored`). */
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
        this.deps.log.warn('export.prune_failed', { error: err instanceof Error ? err.message : String(err) }),
      );
    }
    let wakeAt = Number.POSITIVE_INFINITY;
    const seen = new Set<string>();
    for (const job of await store.activeJobs()) {
      if (this.loop.stopped) return;
      if (seen.has(job.account)) continue;
      if (this.workers.has(job.account)) {
        seen.add(job.account);
        continue;
      }
      const blocked = this.blockedUntil.get(job.id);
      if (blocked !== undefined && blocked > now) {
        wakeAt = Math.min(wakeAt, blocked);
        seen.add(job.account);
        continue;
      }
      this.blockedUntil.delete(job.id);
      if (job.state === 'waiting') {
        // A wait for quota is the governor's guess at the time: asked again, it may have come
        // sooner (limits raised at a restart, calls given back). Other waits keep their time.
        const until =
          job.waitingFor === 'quota' && job.waitingUntil !== null && job.waitingUntil > now
            ? await this.quotaFreesAt(job.account, job.waitingUntil)
            : job.waitingUntil;
        if (until !== null && until > now) {
          wakeAt = Math.min(wakeAt, until);
          seen.add(job.account);
          continue;
        }
        // Waiting for a sign-in: nothing to do until a session exists (the heartbeat looks again).
        if (
          job.waitingUntil === null &&
          !(await this.deps.vault.liveSession(job.account, now, {
            preferSid: job.sid,
            createdAfter: job.signInNeededSince,
          }))
        )
          continue;
      }
      // Another instance works on it: leave it (and the account's later jobs) to that instance.
      if (!(await leases.tryAcquire(leaseOf(job.id), this.holder, now, LEASE_MS))) {
        seen.add(job.account);
        continue;
      }
      // Stopped while the lease was being taken: the stop drains only the workers it saw.
      if (this.loop.stopped) {
        await leases.release(leaseOf(job.id), this.holder).catch(() => undefined);
        return;
      }
      seen.add(job.account);
      this.startWorker(job.account, job.id);
    }
    this.loop.wakeAt(wakeAt);
  }

  private startWorker(account: string, jobId: string): void {
    const abort = new AbortController();
    // What a step leaves for the next one (the dashboard's copy of a page): written by the end.
    const later = new LaterWrites();
    const done = (async () => {
      try {
        // The lease was just taken (tick); holdLease renews it once a third of it has passed, not
        // with every page. Losing it (this instance stalled past it) ends the work here.
        const renewal = { at: this.deps.now() };
        for (;;) {
          const outcome = await holdLease(
            this.deps.leases,
            { resource: leaseOf(jobId), holder: this.holder, ttlMs: LEASE_MS },
            this.deps.now,
            abort.signal,
            (signal) => runJobStep(this.deps, jobId, signal, later),
            renewal,
          );
          if (!outcome || outcome.next !== 'continue' || abort.signal.aborted || this.loop.stopped) break;
        }
      } catch (err) {
        await this.afterCrash(jobId, err).catch(() => undefined);
      } finally {
        await later.flush().catch(() => undefined);
        this.workers.delete(account);
        await this.deps.leases.release(leaseOf(jobId), this.holder).catch(() => undefined);
        this.kick();
      }
    })();
    this.workers.set(account, { jobId, abort, done });
  }

  /**
   * A step threw (a store error): keep what was stored and try again in a minute. A store that
   * cannot be written for now (its disk full, out of reach) is not the export's failure: it waits,
   * however long that lasts, and goes on by itself once the store takes writes again.
   */
  private async afterCrash(jobId: string, err: unknown): Promise<void> {
    const message = err instanceof Error ? err.message : String(err);
    const { store } = this.deps;
    if (isStoreBlocked(err)) {
      const now = this.deps.now();
      this.deps.log.warn('export.store_blocked', { job: jobId, error: message });
      // Held here: the store may take neither the job's read nor its wait.
      this.blockedUntil.set(jobId, now + STORE_BLOCKED_RETRY_MS);
      const waiting = {
        state: 'waiting',
        waitingUntil: now + STORE_BLOCKED_RETRY_MS,
        updatedAt: now,
        message: msg(isStoreFull(err) ? 'exports.job.diskFull' : 'exports.job.storeUnreachable'),
      } as const;
      // Written if the store takes this small write; the job goes on either way.
      await store
        .getJob(jobId)
        .then((job) =>
          job && (job.state === 'queued' || job.state === 'running' || job.state === 'waiting')
            ? store.saveJob(Object.assign(job, waiting))
            : undefined,
        )
        .catch(() => undefined);
      return;
    }
    const job = await store.getJob(jobId);
    if (!job || (job.state !== 'queued' && job.state !== 'running' && job.state !== 'waiting')) return;
    const now = this.deps.now();
    this.deps.log.error('export.step_failed', { job: jobId, error: message });
    job.failures += 1;
    job.updatedAt = now;
    if (job.failures > MAX_FAILURES) {
      Object.assign(job, {
        state: 'failed',
        finishedAt: now,
        expiresAt: retentionEnd(now, this.deps.config),
        waitingUntil: null,
        message: msg('exports.job.serverFailed'),
      });
      await store.saveJob(job);
      await store.deleteRows(job.id);
      return;
    }
    Object.assign(job, {
      state: 'waiting',
      waitingUntil: now + AFTER_CRASH_RETRY_MS,
      message: msg('exports.job.serverInterrupted'),
    });
    await store.saveJob(job);
  }

  private async prune(now: number): Promise<void> {
    for (const id of await this.deps.store.expiredJobs(now)) {
      await this.deps.files.delete(id);
      await this.deps.store.deleteJob(id);
      this.deps.log.info('export.expired', { job: id });
    }
  }
}
