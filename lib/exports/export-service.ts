import 'server-only';
/**
 * What the /api/exports routes do, account by account: estimate, create, list, read, cancel and
 * find the file of export jobs. A job of another account is "not found", never "forbidden": its
 * existence is not anyone else's business.
 */
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { isActiveExportState, type ExportEstimate, type ExportJob } from './api';
import type { Config } from '../config';
import type { Role } from '../team';
import { roleNeeded } from '../team/server';
import { scopeOf } from '../history';
import { csvFileName } from '../csv/file-name';
import { InvalidInputError } from '../errors/invalid-input';
import { notFound, ProblemError } from '../http/problem';
import { msg } from '../i18n/message';
import type { Logger } from '../log';
import type { UpstreamAccount, UpstreamGateway } from '../upstream/server';
import type { ExportFileStore } from './file-store';
import type { ExportJobStore } from './job-store';
import type { ExportJobRecord } from './job-row';
import type { PageCacheStore } from '../cache/server';
import type { PageSizes } from '../history/server';
import { accountSchedule, callsQueued } from './account-schedule';
import { estimateExport } from './estimate';
import { freezeRange, type ExportRequest } from './export-request';
import { createJobRecord, retentionEnd } from './job-record';
import { routeNewJob, type LocalReadDeps } from './local-windows';
import { presentJob } from './present-job';
import type { ExportRunner } from './runner';

/**
 * The signed-in account an export belongs to (its session renews the upstream token), and in team
 * mode the person asking: who they are, whether they see everyone's exports (an admin) and whether
 * they see personal data masked (their files are written masked, and they get no file that is not).
 */
export type ExportAccount = Pick<UpstreamAccount, 'apiKey' | 'enterpriseId'> & {
  sid: string;
  requester?: { person: string; role: Role; seesAll: boolean; masked: boolean };
};

/** Whether the person may see the job at all: a personal session or an admin sees every one of the account's. */
const visibleTo = (account: ExportAccount, job: ExportJobRecord): boolean =>
  !account.requester || account.requester.seesAll || job.person === account.requester.person;

/**
 * Whose an export is: the account that asked, its API key and its enterprise (the local history's
 * key): a key that reaches several enterprises, signed in for one, does not see the others' exports.
 */
const ownerOf = (account: ExportAccount): string => scopeOf(account).key;

const LIST_LIMIT = 100;

export interface ExportServiceDeps {
  store: ExportJobStore;
  files: ExportFileStore;
  gateway: Pick<UpstreamGateway, 'planCalls' | 'limits'>;
  cache: PageCacheStore;
  /** The local history, which answers what it holds with no call (for estimates). */
  local: LocalReadDeps;
  runner: Pick<ExportRunner, 'kick' | 'cancel'>;
  config: Pick<Config, 'EXPORT_RETENTION_DAYS' | 'MAX_ACTIVE_EXPORTS' | 'EXPORT_MAX_BYTES_PER_ACCOUNT'>;
  /** The page size background reads ask for (lib/history/sync-page-size.ts): a job reads at the size known when it starts. */
  pageSizes: Pick<PageSizes, 'state'>;
  log: Logger;
  now: () => number;
}

export type CreateResult = { kind: 'estimate'; estimate: ExportEstimate } | { kind: 'job'; job: ExportJob };

export class ExportService {
  constructor(private readonly deps: ExportServiceDeps) {}

  private async scheduleDeps() {
    const { gateway, cache, local, now, pageSizes } = this.deps;
    return { gateway, cache, local, now, pageSize: (await pageSizes.state()).size };
  }

  private async activeOf(apiKey: string): Promise<ExportJobRecord[]> {
    return (await this.deps.store.activeJobs()).filter((j) => j.account === apiKey);
  }

  /** The job as answered, with the schedule of its remaining calls while it has work left. */
  private async present(job: ExportJobRecord, active: readonly ExportJobRecord[]): Promise<ExportJob> {
    if (!isActiveExportState(job.state)) return presentJob(job, null);
    const queued = callsQueued(active, job.account).get(job.id) ?? { calls: 0, ahead: 0, windowsUnknown: 0 };
    const schedule = await accountSchedule(await this.scheduleDeps(), job.account, queued.calls, queued.ahead);
    return presentJob(job, schedule);
  }

  /** The account's job; one past its retention is gone, whether or not the pruner (every few minutes) has deleted it yet. */
  private async ownJob(account: ExportAccount, id: string): Promise<ExportJobRecord> {
    const job = await this.deps.store.getJobFor(id, ownerOf(account));
    if (!job || isExpired(job, this.deps.now()) || !visibleTo(account, job))
      throw notFound(msg('problems.exports.notYours', { id: id.slice(0, 64) }));
    return job;
  }

  /**
   * An export of a request its route has read (export-request.ts `exportRequestOf`): an estimate
   * (`dryRun`) or a new job. A range nothing of which has happened yet is refused (InvalidInputError).
   */
  async create(account: ExportAccount, request: ExportRequest): Promise<CreateResult> {
    const now = this.deps.now();
    const frozen = freezeRange(request.query, now);
    if (!frozen.ok) throw new InvalidInputError({ 'date-from': frozen.error });
    const active = await this.activeOf(account.apiKey);
    const callsAhead = [...callsQueued(active, account.apiKey).values()].reduce((sum, q) => sum + q.calls, 0);

    if (request.dryRun) {
      const estimate = await estimateExport(await this.scheduleDeps(), {
        account: { apiKey: account.apiKey, enterpriseId: account.enterpriseId },
        frozen: frozen.frozen,
        columns: request.columns,
        fileName: csvFileName(frozen.frozen.query),
        callsAhead,
      });
      return { kind: 'estimate', estimate };
    }

    const job = createJobRecord({
      id: randomUUID(),
      account: { apiKey: account.apiKey, sid: account.sid, enterpriseId: account.enterpriseId },
      frozen: frozen.frozen,
      columns: request.columns,
      excel: request.excel,
      pageSize: (await this.deps.pageSizes.state()).size,
      now,
    });
    if (account.requester) job.person = account.requester.person;
    if (account.requester?.masked) job.masked = true;
    await routeNewJob(this.deps.local, job);
    const { MAX_ACTIVE_EXPORTS: maxActive, EXPORT_MAX_BYTES_PER_ACCOUNT: maxBytes } = this.deps.config;
    const admission = await this.deps.store.insertJobWithin(job, ownerOf(account), { maxActive, maxBytes });
    if (!admission.admitted) {
      this.deps.log.info('export.refused', { account: account.apiKey, by: admission.by });
      throw admission.by === 'active' ? tooManyExports(admission.active) : exportSpaceFull(admission.bytes, maxBytes);
    }
    this.deps.log.info('export.created', {
      job: job.id,
      account: account.apiKey,
      windows: job.windows.length,
      columns: job.columns.length,
    });
    this.deps.runner.kick();
    return { kind: 'job', job: await this.present(job, [...active, job]) };
  }

  async list(account: ExportAccount): Promise<ExportJob[]> {
    const active = await this.activeOf(account.apiKey);
    // Someone of this account is here: a job waiting for a sign-in may go on now.
    if (active.length > 0) this.deps.runner.kick();
    const now = this.deps.now();
    const jobs = (await this.deps.store.listJobs(ownerOf(account), LIST_LIMIT)).filter(
      (job) => !isExpired(job, now) && visibleTo(account, job),
    );
    return Promise.all(jobs.map((job) => this.present(job, active)));
  }

  async get(account: ExportAccount, id: string): Promise<ExportJob> {
    const job = await this.ownJob(account, id);
    if (isActiveExportState(job.state)) this.deps.runner.kick();
    return this.present(job, await this.activeOf(account.apiKey));
  }

  /**
   * Cancels a job with work left (its records and any file are deleted; the job stays listed as
   * cancelled until its retention ends), or deletes a finished one outright. Returns null when the
   * job is gone.
   */
  async cancel(account: ExportAccount, id: string): Promise<ExportJob | null> {
    const { store, files, log } = this.deps;
    const job = await this.ownJob(account, id);
    if (!isActiveExportState(job.state)) {
      await files.delete(job.id);
      await store.deleteJob(job.id);
      log.info('export.deleted', { job: job.id, account: account.apiKey });
      return null;
    }
    const now = this.deps.now();
    Object.assign(job, {
      state: 'cancelled',
      updatedAt: now,
      finishedAt: now,
      expiresAt: retentionEnd(now, this.deps.config),
      waitingUntil: null,
      message: msg('exports.job.cancelled'),
    } satisfies Partial<ExportJobRecord>);
    await store.saveJob(job);
    await store.deleteRows(job.id);
    this.deps.runner.cancel(job.id);
    await files.delete(job.id);
    log.info('export.cancelled', { job: job.id, account: account.apiKey });
    return presentJob(job, null);
  }

  /** The finished file of a job: a stream of its bytes (one chunk in memory at a time), its name and size. */
  async file(account: ExportAccount, id: string): Promise<{ stream: Readable; fileName: string; bytes: number }> {
    const job = await this.ownJob(account, id);
    // Written in clear for an admin: not for someone who sees personal data masked (an admin since demoted).
    if (account.requester?.masked && !job.masked)
      throw roleNeeded('admin', account.requester.role, msg('team.problems.roleNeeded.whatClearFile'));
    if (job.state !== 'done') {
      throw new ProblemError({
        type: '/problems/export-not-ready',
        title: msg('problems.exports.notReady.title'),
        status: 409,
        detail: msg(
          job.state === 'failed' || job.state === 'cancelled'
            ? 'problems.exports.notReady.ended'
            : 'problems.exports.notReady.pending',
          { state: job.state },
        ),
      });
    }
    const [bytes, stream] = await Promise.all([this.deps.files.size(job.id), this.deps.files.read(job.id)]);
    if (bytes === null || !stream) throw notFound(msg('problems.exports.fileGone'));
    return { stream, fileName: job.fileName, bytes };
  }
}

function tooManyExports(active: number): ProblemError {
  return new ProblemError({
    type: '/problems/too-many-exports',
    title: msg('problems.exports.tooMany.title'),
    status: 409,
    detail: msg('problems.exports.tooMany.detail', { active }),
  });
}

const mib = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(1)} MiB`;

function exportSpaceFull(bytes: number, maxBytes: number): ProblemError {
  return new ProblemError({
    type: '/problems/export-space-full',
    title: msg('problems.exports.spaceFull.title'),
    status: 507,
    detail: msg('problems.exports.spaceFull.detail', { held: mib(bytes), max: mib(maxBytes) }),
  });
}

/** Past its retention (a finished job's `expiresAt`; a running one has none). */
function isExpired(job: ExportJobRecord, now: number): boolean {
  return job.expiresAt !== null && job.expiresAt <= now;
}
