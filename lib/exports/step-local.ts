import 'server-only';
/**
 * Reading a window the local history holds: the next batch of its records, at no call, stored as
 * a page of the job (its first batch learns the window's size).
 */
import type { ExportJobRecord, StoredWindow } from './job-row';
import { readLocalBatch } from './local-windows';
import { commit } from './store-page';
import type { StepDeps, StepOutcome } from './step-deps';

export async function localStep(deps: StepDeps, job: ExportJobRecord, w: StoredWindow): Promise<StepOutcome> {
  const cdrs = await readLocalBatch(deps.local, job, w);
  await commit(deps, job, w.id, w.pagesDone + 1, { cdrs, totalFound: w.totalFound ?? 0 }, 'local');
  return { next: 'continue' };
}
