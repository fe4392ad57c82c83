import 'server-only';
/**
 * Runs export jobs inside the server process, from startup (instrumentation.ts) to shutdown:
 *  - one instance at a time works on a job: it holds the job's lease (lib/store/leases.ts) and
 *    renews it with every step; when an instance dies, its leases expire and another instance's
 *    heartbeat takes the job over where the store says it stopped;
 *  - per account, one job at a time in an instance, oldest first (they share the account's quota);
 *  - each job step by step (job-step.ts), so everything it learns is stored before the next call;
 *  - a job waiting for quota sleeps until its `waitingUntil`; one waiting for a sign-in is looked at
 *    again on a heartbeat and whenever its account uses the exports API;
 *  - finished jobs and their files past their retention are deleted.
 * A restarted server finds the queued, running and waiting jobs in the store and carries on.
 */
import { randomUUID } from 'node:crypto';
import type { LeaseStore } from '../store';
import { retentionEnd } from './job-record';
import { MAX_FAILURES, runJobStep, type StepDeps } from './job-step';
import { LaterWrites } from './later-writes';

/** How long a job's lease lasts without renewal: a dead instance's jobs move on within a minute. */
export const LEASE_MS = 30_000;
const RENEW_EVERY_MS = LEASE_MS / 3;
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

const leaseOf = (jobId: string) => `export:${jobId}`;

export class ExportRunner {
  /** Which instance this is, as lease holder. */
  private readonly holder = randomUUID();
  private readonly workers = new Map<string, Worker>();
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerAt = Number.POSITIVE_INFINITY;
  private kicked = false;
  private ticking: Promise<void> | undefined;
  private stopped = false;
  private lastPrune = Number.NEGATIVE_INFINITY;

  constructor(private readonly deps: RunnerDeps) {}

  /** Starts the heartbeat and picks up whatever the store holds (a restart resumes here). */
  start(): void {
    if (this.heartbeat) return;
    this.stopped = false;
    this.heartbeat = setInterval(() => this.kick(), HEARTBEAT_MS);
    // Neither timer may keep a finished test or a stopping server alive.
    this.heartbeat.unref?.();
    this.kick();
  }

  /** Stops scheduling and aborts the calls in flight (their jobs resume at the next start, here or elsewhere). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.timer) clearTimeout(this.timer);
    this.heartbeat = undefined;
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    const workers = [...this.workers.values()];
    for (const w of workers) w.abort.abort(new Error('export runner stopped'));
    await Promise.all(workers.map((w) => w.done));
    await this.ticking;
  }

  /** Something changed (a job created, cancelled, an account came back): look again soon. */
  kick(): void {
    if (this.kicked || this.stopped) return;
    this.kicked = true;
    setTimeout(() => {
      this.kicked = false;
      this.ticking = this.tick().catch((err: unknown) => this.deps.log.warn('export.tick_failed', { error: err instanceof Error ? err.message : String(err) }));
    }, 0).unref?.();
  }

  /** Aborts the job's call in flight, if it runs here; its state is already `cancelled` in the store. */
  cancel(jobId: string): void {
    for (const w of this.workers.values()) if (w.jobId === jobId) w.abort.abort(new Error('export cancelled'));
  }

  /** Whether a worker of this instance is running this job now (tests). */
  isRunning(jobId: string): boolean {
    return [...this.workers.values()].some((w) => w.jobId === jobId);
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    const { store, leases } = this.deps;
    const now = this.deps.now();
    if (now - this.lastPrune >= PRUNE_EVERY_MS) {
      this.lastPrune = now;
      await this.prune(now).catch((err: unknown) => this.deps.log.warn('export.prune_failed', { error: err instanceof Error ? err.message : String(err) }));
    }
    let wakeAt = Number.POSITIVE_INFINITY;
    const seen = new Set<string>();
    for (const job of await store.activeJobs()) {
      if (this.stopped) return;
      if (seen.has(job.account)) continue;
      if (this.workers.has(job.account)) {
        seen.add(job.account);
        continue;
      }
      if (job.state === 'waiting') {
        if (job.waitingUntil !== null && job.waitingUntil > now) {
          wakeAt = Math.min(wakeAt, job.waitingUntil);
          seen.add(job.account);
          continue;
        }
        // Waiting for a sign-in: nothing to do until a session exists (the heartbeat looks again).
        if (job.waitingUntil === null && !(await store.liveSession(job.account, job.sid, now, job.signInNeededSince))) continue;
      }
      // Another instance works on it: leave it (and the account's later jobs) to that instance.
      if (!(await leases.tryAcquire(leaseOf(job.id), this.holder, now, LEASE_MS))) {
        seen.add(job.account);
        continue;
      }
      seen.add(job.account);
      this.startWorker(job.account, job.id);
    }
    this.wakeAt(wakeAt);
  }

  private startWorker(account: string, jobId: string): void {
    const abort = new AbortController();
    // What a step leaves for the next one (the dashboard's copy of a page): written by the end.
    const later = new LaterWrites();
    const done = (async () => {
      try {
        // The lease was just taken (tick); it is renewed once a third of it has passed — here
        // before a step, and by the step itself while it runs — not with every page: it never has
        // less than two thirds left when a step starts. Losing it (this instance stalled past it)
        // ends the work here.
        let renewedAt = this.deps.now();
        for (;;) {
          const now = this.deps.now();
          if (now - renewedAt >= RENEW_EVERY_MS) {
            if (!(await this.deps.leases.tryAcquire(leaseOf(jobId), this.holder, now, LEASE_MS))) break;
            renewedAt = now;
          }
          const outcome = await this.step(jobId, abort.signal, later);
          if (outcome.next !== 'continue' || abort.signal.aborted) break;
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
   * One step with a signal of its own, tied to the worker's: listeners that a call leaves on its
   * signal go away with the step instead of piling up on one signal for the job's whole life. A
   * step that waits long for the governor keeps its lease alive meanwhile.
   */
  private async step(jobId: string, workerSignal: AbortSignal, later: LaterWrites) {
    const step = new AbortController();
    const forward = () => step.abort(workerSignal.reason);
    workerSignal.addEventListener('abort', forward, { once: true });
    const keepAlive = setInterval(() => {
      void this.deps.leases.tryAcquire(leaseOf(jobId), this.holder, this.deps.now(), LEASE_MS).then((held) => {
        if (!held) step.abort(new Error('lease lost'));
      });
    }, RENEW_EVERY_MS);
    keepAlive.unref?.();
    try {
      return await runJobStep(this.deps, jobId, step.signal, later);
    } finally {
      clearInterval(keepAlive);
      workerSignal.removeEventListener('abort', forward);
    }
  }

  /** A step threw (a store error): keep what was stored and try again in a minute. */
  private async afterCrash(jobId: string, err: unknown): Promise<void> {
    const message = err instanceof Error ? err.message : String(err);
    this.deps.log.error('export.step_failed', { job: jobId, error: message });
    const { store } = this.deps;
    const job = await store.getJob(jobId);
    if (!job || (job.state !== 'queued' && job.state !== 'running' && job.state !== 'waiting')) return;
    const now = this.deps.now();
    job.failures += 1;
    job.updatedAt = now;
    if (job.failures > MAX_FAILURES) {
      Object.assign(job, { state: 'failed', finishedAt: now, expiresAt: retentionEnd(now, this.deps.config), waitingUntil: null, message: 'The export failed on the server; it was logged. Start it again.' });
      await store.saveJob(job);
      await store.deleteRows(job.id);
      return;
    }
    Object.assign(job, { state: 'waiting', waitingUntil: now + AFTER_CRASH_RETRY_MS, message: 'A problem on the server interrupted the export; it tries again in a minute.' });
    await store.saveJob(job);
  }

  private wakeAt(at: number): void {
    if (at === this.timerAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = at;
    if (!Number.isFinite(at)) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerAt = Number.POSITIVE_INFINITY;
      this.kick();
    }, Math.max(0, at - this.deps.now()));
    this.timer.unref?.();
  }

  private async prune(now: number): Promise<void> {
    for (const id of await this.deps.store.expiredJobs(now)) {
      await this.deps.files.delete(id);
      await this.deps.store.deleteJob(id);
      this.deps.log.info('export.expired', { job: id });
    }
  }
}
