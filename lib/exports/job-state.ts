import 'server-only';
/**
 * How a step leaves the job: saved with its progress (`save`), waiting and why (`wait`: for quota,
 * a sign-in, the upstream's recovery), or failed with a message a person can act on (`fail`, which
 * drops the records read so far and keeps the job for its retention).
 */
import type { ExportJobRecord } from './job-row';
import { retentionEnd } from './job-record';
import { formatWallClock } from '../time/zones';
import type { Words } from '../i18n/message';
import { translate } from '../i18n/translate';
import type { StepDeps, StepOutcome } from './step-deps';

/** An instant as the job's person reads it: in the export's zone. */
export function at(ms: number, job: ExportJobRecord): string {
  return `${formatWallClock(new Date(ms), job.query.tz)} ${job.query.tz}`;
}

export async function save(deps: StepDeps, job: ExportJobRecord, changes: Partial<ExportJobRecord>): Promise<void> {
  Object.assign(job, changes, { updatedAt: deps.now() });
  await deps.store.saveJob(job);
}

export async function wait(
  deps: StepDeps,
  job: ExportJobRecord,
  until: number | null,
  message: Words,
  waitingFor?: 'quota',
): Promise<StepOutcome> {
  await save(deps, job, { state: 'waiting', waitingUntil: until, message, waitingFor });
  return { next: 'wait', until };
}

export async function fail(deps: StepDeps, job: ExportJobRecord, message: Words): Promise<StepOutcome> {
  const now = deps.now();
  await save(deps, job, {
    state: 'failed',
    message,
    waitingUntil: null,
    finishedAt: now,
    expiresAt: retentionEnd(now, deps.config),
  });
  await deps.store.deleteRows(job.id);
  deps.log.warn('export.failed', { job: job.id, account: job.account, reason: translate('en', message) });
  return { next: 'stop' };
}
