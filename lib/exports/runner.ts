import 'server-only';
/**
 * Runs export jobs inside the server process, from startup (instrumentation.ts) to shutdown:
 *  - per account, one job at a time, oldest first (they share the account's quota anyway);
 *  - each job step by step (job-step.ts), so everything it learns is stored before the next call;
 *  - a job waiting for quota sleeps until its `waitingUntil`; one waiting for a sign-in is looked at
 *    again on a heartbeat and whenever its account uses the exports API;
 *  - finished files past their retention are deleted.
 * A restarted server finds the queued, running and waiting jobs in the store and carries on.
 */
import { deleteExportFile } from './file-writer';
import { retentionEnd } from './job-record';
import { MAX_FAILURES, runJobStep, type StepDeps } from './job-step';

const HEARTBEAT_MS = 30_000;
const PRUNE_EVERY_MS = 10 * 60_000;
const AFTER_CRASH_RETRY_MS = 60_000;

interface Worker {
  jobId: string;
  abort: AbortController;
  done: Promise<void>;
}

export class ExportRunner {
  private readonly workers = new Map<string, Worker>();
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerAt = Number.POSITIVE_INFINITY;
  private kicked = false;
  private stopped = false;
  private lastPrune = Number.NEGATIVE_INFINITY;

  constructor(private readonly deps: StepDeps) {}

  /** Starts the heartbeat and picks up whatever the store holds (a restart resumes here). */
  start(): void {
    if (this.heartbeat) return;
    this.stopped = false;
    const active = this.deps.store.activeJobs();
    if (active.length > 0) this.deps.log.info('export.resume', { jobs: active.length });
    this.heartbeat = setInterval(() => this.kick(), HEARTBEAT_MS);
    // Neither timer may keep a finished test or a stopping server alive.
    this.heartbeat.unref?.();
    this.kick();
  }

  /** Stops scheduling and aborts the calls in flight (their jobs resume at the next start). */
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
  }

  /** Something changed (a job created, cancelled, an account came back): look again soon. */
  kick(): void {
    if (this.kicked || this.stopped) return;
    this.kicked = true;
    setTimeout(() => {
      this.kicked = false;
      void this.tick();
    }, 0).unref?.();
  }

  /** Aborts the job's call in flight, if it has one; its state is already `cancelled` in the store. */
  cancel(jobId: string): void {
    for (const w of this.workers.values()) if (w.jobId === jobId) w.abort.abort(new Error('export cancelled'));
  }

  /** Whether a worker is running this job now (tests). */
  isRunning(jobId: string): boolean {
    return [...this.workers.values()].some((w) => w.jobId === jobId);
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    const now = this.deps.now();
    if (now - this.lastPrune >= PRUNE_EVERY_MS) {
      this.lastPrune = now;
      await this.prune(now).catch((err: unknown) => this.deps.log.warn('export.prune_failed', { error: err instanceof Error ? err.message : String(err) }));
    }
    let wakeAt = Number.POSITIVE_INFINITY;
    const seen = new Set<string>();
    for (const job of this.deps.store.activeJobs()) {
      if (seen.has(job.account)) continue;
      seen.add(job.account);
      if (this.workers.has(job.account)) continue;
      if (job.state === 'waiting') {
        if (job.waitingUntil !== null && job.waitingUntil > now) {
          wakeAt = Math.min(wakeAt, job.waitingUntil);
          continue;
        }
        // Waiting for a sign-in: nothing to do until a session exists (the heartbeat looks again).
        if (job.waitingUntil === null && !this.deps.store.liveSession(job.account, job.sid, now, job.signInNeededSince)) continue;
      }
      this.startWorker(job.account, job.id);
    }
    this.wakeAt(wakeAt);
  }

  private startWorker(account: string, jobId: string): void {
    const abort = new AbortController();
    const done = (async () => {
      try {
        for (;;) {
          const outcome = await this.step(jobId, abort.signal);
          if (outcome.next !== 'continue' || abort.signal.aborted) break;
        }
      } catch (err) {
        this.afterCrash(jobId, err);
      } finally {
        this.workers.delete(account);
        this.kick();
      }
    })();
    this.workers.set(account, { jobId, abort, done });
  }

  /**
   * One step with a signal of its own, tied to the worker's: listeners that a call leaves on its
   * signal go away with the step instead of piling up on one signal for the job's whole life.
   */
  private async step(jobId: string, workerSignal: AbortSignal) {
    const step = new AbortController();
    const forward = () => step.abort(workerSignal.reason);
    workerSignal.addEventListener('abort', forward, { once: true });
    try {
      return await runJobStep(this.deps, jobId, step.signal);
    } finally {
      workerSignal.removeEventListener('abort', forward);
    }
  }

  /** A step threw (disk full, a store error): keep what was stored and try again in a minute. */
  private afterCrash(jobId: string, err: unknown): void {
    const message = err instanceof Error ? err.message : String(err);
    this.deps.log.error('export.step_failed', { job: jobId, error: message });
    const job = this.deps.store.getJob(jobId);
    if (!job || (job.state !== 'queued' && job.state !== 'running' && job.state !== 'waiting')) return;
    const now = this.deps.now();
    job.failures += 1;
    job.updatedAt = now;
    if (job.failures > MAX_FAILURES) {
      Object.assign(job, { state: 'failed', finishedAt: now, expiresAt: retentionEnd(now, this.deps.config), waitingUntil: null, message: 'The export failed on the server; it was logged. Start it again.' });
      this.deps.store.saveJob(job);
      this.deps.store.deleteRows(job.id);
      return;
    }
    Object.assign(job, { state: 'waiting', waitingUntil: now + AFTER_CRASH_RETRY_MS, message: 'A problem on the server interrupted the export; it tries again in a minute.' });
    this.deps.store.saveJob(job);
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
    for (const id of this.deps.store.expiredJobs(now)) {
      await deleteExportFile(this.deps.exportsDir, id);
      this.deps.store.deleteJob(id);
      this.deps.log.info('export.expired', { job: id });
    }
  }
}
