import 'server-only';
/**
 * What the /api/exports routes do, account by account: estimate, create, list, read, cancel and
 * find the file of export jobs. A job of another account is "not found", never "forbidden": its
 * existence is not anyone else's business.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { SignedInAccount } from '../auth/session';
import { badRequest, notFound, ProblemError } from '../http/problem';
import { getConfig } from '../config';
import { log } from '../log';
import { getStore } from '../store';
import { getExportStore, type ExportJobRecord } from '../store/exports';
import { accountSchedule, callsQueued } from './account-schedule';
import { estimateExport } from './estimate';
import { freezeRange, parseExportRequest } from './export-request';
import { csvFileName } from './file-name';
import { deleteExportFile, exportFilePath } from './file-writer';
import { createJobRecord } from './job-record';
import { presentJob } from './present-job';
import { exportsDir, getExportRunner } from './runner';
import { isActiveExportState, type ExportEstimate, type ExportJob } from './types';

/** Active jobs one account may have at once: enough for real use, a bound on a runaway script. */
export const MAX_ACTIVE_EXPORTS = 10;
const LIST_LIMIT = 100;

function deps() {
  const config = getConfig();
  return { ledger: getStore().ledger, cache: getStore().cache, config, now: Date.now, pageSize: config.UPSTREAM_PAGE_SIZE };
}

function activeOf(apiKey: string): ExportJobRecord[] {
  return getExportStore().activeJobs().filter((j) => j.account === apiKey);
}

/** The job as answered, with the schedule of its remaining calls while it has work left. */
async function present(job: ExportJobRecord, active: readonly ExportJobRecord[]): Promise<ExportJob> {
  if (!isActiveExportState(job.state)) return presentJob(job, null);
  const queued = callsQueued(active, job.account).get(job.id) ?? { calls: 0, ahead: 0, windowsUnknown: 0 };
  const schedule = await accountSchedule(deps(), job.account, queued.calls, queued.ahead);
  return presentJob(job, schedule);
}

function ownJob(account: SignedInAccount, id: string): ExportJobRecord {
  const job = getExportStore().getJobFor(id, account.apiKey);
  if (!job) throw notFound(`No export ${id.slice(0, 64)} belongs to your account (finished exports are deleted after their retention).`);
  return job;
}

export type CreateResult = { kind: 'estimate'; estimate: ExportEstimate } | { kind: 'job'; job: ExportJob };

export async function createExport(account: SignedInAccount, body: unknown): Promise<CreateResult> {
  const parsed = parseExportRequest(body);
  if (!parsed.ok) throw badRequest(parsed.errors);
  const now = Date.now();
  const frozen = freezeRange(parsed.request.query, now);
  if (!frozen.ok) throw badRequest({ 'date-from': frozen.error });
  const active = activeOf(account.apiKey);
  const callsAhead = [...callsQueued(active, account.apiKey).values()].reduce((sum, q) => sum + q.calls, 0);
  const fileName = csvFileName(frozen.frozen.query);

  if (parsed.request.dryRun) {
    const estimate = await estimateExport(deps(), {
      account: { apiKey: account.apiKey, enterpriseId: account.enterpriseId },
      frozen: frozen.frozen,
      columns: parsed.request.columns,
      fileName,
      callsAhead,
    });
    return { kind: 'estimate', estimate };
  }

  if (active.length >= MAX_ACTIVE_EXPORTS) {
    throw new ProblemError({
      type: '/problems/too-many-exports',
      title: 'Too many exports waiting',
      status: 409,
      detail: `Your account already has ${active.length} exports queued or running; cancel one or wait for one to finish.`,
    });
  }
  const job = createJobRecord({
    id: randomUUID(),
    account: { apiKey: account.apiKey, sid: account.sid, enterpriseId: account.enterpriseId },
    frozen: frozen.frozen,
    columns: parsed.request.columns,
    pageSize: getConfig().UPSTREAM_PAGE_SIZE,
    now,
  });
  getExportStore().insertJob(job);
  log.info('export.created', { job: job.id, account: account.apiKey, windows: job.windows.length, columns: job.columns.length });
  getExportRunner().kick();
  return { kind: 'job', job: await present(job, [...active, job]) };
}

export async function listExports(account: SignedInAccount): Promise<ExportJob[]> {
  const store = getExportStore();
  const active = activeOf(account.apiKey);
  // Someone of this account is here: a job waiting for a sign-in may go on now.
  if (active.length > 0) getExportRunner().kick();
  return Promise.all(store.listJobs(account.apiKey, LIST_LIMIT).map((job) => present(job, active)));
}

export async function getExport(account: SignedInAccount, id: string): Promise<ExportJob> {
  const job = ownJob(account, id);
  const active = activeOf(account.apiKey);
  if (isActiveExportState(job.state)) getExportRunner().kick();
  return present(job, active);
}

/**
 * Cancels a job with work left (its records and any file are deleted; the job stays listed as
 * cancelled until its retention ends), or deletes a finished one outright. Returns null when the
 * job is gone.
 */
export async function cancelExport(account: SignedInAccount, id: string): Promise<ExportJob | null> {
  const store = getExportStore();
  const job = ownJob(account, id);
  const dir = exportsDir();
  if (!isActiveExportState(job.state)) {
    await deleteExportFile(dir, job.id);
    store.deleteJob(job.id);
    log.info('export.deleted', { job: job.id, account: account.apiKey });
    return null;
  }
  const now = Date.now();
  Object.assign(job, {
    state: 'cancelled',
    updatedAt: now,
    finishedAt: now,
    expiresAt: now + getConfig().EXPORT_RETENTION_DAYS * 86_400_000,
    waitingUntil: null,
    message: 'Cancelled.',
  } satisfies Partial<ExportJobRecord>);
  store.saveJob(job);
  store.deleteRows(job.id);
  getExportRunner().cancel(job.id);
  await deleteExportFile(dir, job.id);
  log.info('export.cancelled', { job: job.id, account: account.apiKey });
  return presentJob(job, null);
}

/** The finished file of a job: where it is, what to call it, how big it is. */
export async function exportFile(account: SignedInAccount, id: string): Promise<{ path: string; fileName: string; bytes: number }> {
  const job = ownJob(account, id);
  if (job.state !== 'done') {
    throw new ProblemError({
      type: '/problems/export-not-ready',
      title: 'The export has no file yet',
      status: 409,
      detail: job.state === 'failed' || job.state === 'cancelled' ? `The export is ${job.state}: it has no file.` : `The export is ${job.state}; its file is ready when it is done.`,
    });
  }
  const file = exportFilePath(exportsDir(), job.id);
  const stat = await fs.promises.stat(file).catch(() => null);
  if (!stat) throw notFound('The export\u2019s file is gone (deleted after its retention or by hand).');
  return { path: file, fileName: job.fileName, bytes: stat.size };
}
