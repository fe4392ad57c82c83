import 'server-only';
/**
 * One step of an export job, the advance: from the stored job, the next pending window is routed
 * (local-windows.ts: read locally, upstream, or replaced by narrower windows) and its next page read
 * — locally (step-local.ts) or from the cache or the upstream (step-upstream.ts) — and stored before
 * anything else happens; once no window is pending, the file is written (finish-job.ts). The runner
 * repeats steps until the job is done or has to wait.
 *
 * Why a step and not a loop over pages: every step starts from the stored job, so a restart, a
 * cancel or a crash between two steps loses nothing and repeats nothing.
 */
import { ExportJobCancelledError } from './job-store';
import { finishJob } from './finish-job';
import { LaterWrites } from './later-writes';
import { nothingHeldMessage, routeWindow } from './local-windows';
import { fail, save } from './job-state';
import { localStep } from './step-local';
import { upstreamStep } from './step-upstream';
import type { StepDeps, StepOutcome } from './step-deps';

export type { StepDeps, StepOutcome } from './step-deps';

/**
 * Runs one step of job `jobId`. `signal` aborts a call in flight (cancel, shutdown). `later` holds
 * what a step may leave to the next one (the dashboard's copy of a fetched page, written while the
 * next call is in flight); the runner keeps one per job. Without it, nothing is left for later.
 */
export async function runJobStep(
  deps: StepDeps,
  jobId: string,
  signal?: AbortSignal,
  later?: LaterWrites,
): Promise<StepOutcome> {
  const writes = later ?? new LaterWrites();
  // Cancelled while this step ran: what it read is not written, and it stops.
  const outcome = await step(deps, jobId, writes, signal).catch((err: unknown) => {
    if (err instanceof ExportJobCancelledError) return { next: 'stop' } as const;
    throw err;
  });
  // Only a step that goes straight on to the next call leaves writes behind.
  if (outcome.next !== 'continue' || !later) await writes.flush();
  return outcome;
}

async function step(
  deps: StepDeps,
  jobId: string,
  later: LaterWrites,
  signal: AbortSignal | undefined,
): Promise<StepOutcome> {
  const job = await deps.store.getJob(jobId);
  if (!job || (job.state !== 'queued' && job.state !== 'running' && job.state !== 'waiting')) return { next: 'stop' };
  const w = job.windows.find((x) => x.state === 'pending');
  if (!w) {
    // The dashboard's copies of the last pages before the file, as at the end of any step that makes no call.
    await later.flush();
    await finishJob(deps, job, signal);
    return { next: 'stop' };
  }
  const route = await routeWindow(deps.local, job, w);
  if (route === 'empty') return fail(deps, job, nothingHeldMessage(job));
  if (route === 'replaced') {
    await save(deps, job, {});
    return { next: 'continue' };
  }
  if (route === 'local') return localStep(deps, job, w);
  return upstreamStep(deps, job, w, later, signal);
}
