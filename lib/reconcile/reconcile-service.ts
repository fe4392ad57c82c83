import 'server-only';
/**
 * What the /api/reconciliations routes do, account by account: make a reconciliation (its plan,
 * and what the local history answers at once), start it, read it, its rows and its file, and
 * forget it. Another account's reconciliation is "not found", never "forbidden": its existence is
 * no one else's business.
 */
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Config } from '../config';
import { retentionEnd } from '../exports/server';
import { scopeOf } from '../history';
import { notFound, ProblemError } from '../http/problem';
import { msg } from '../i18n/message';
import type { Logger } from '../log';
import type { UpstreamAccount } from '../upstream/server';
import { isActiveReconcileState, type ReconcileCreated, type ReconcileRowsPage, type Reconciliation } from './api';
import { answerFile } from './answer-file';
import type { ReconcileJobStore } from './job-store';
import type { ReconcileJobRecord, StoredRow } from './job-row';
import { summarizeJob } from './job-summary';
import { ASSUMED_CALL_MS, planRows, type PlanDeps } from './plan-rows';
import { presentJob, reconcileFileName } from './present-job';
import { presentRow } from './present';
import type { ReconcileInput } from './reconcile-request';
import { rowsOf } from './row-spans';
import { SummaryTally } from './summary';
import type { ReconcileRunner } from './runner';
import type { RowsQuery } from './rows-query';
import { rowWords } from './row-words';
import type { Locale } from '../i18n/locales';
import type { Zone } from '../time/zones';

/** The signed-in account a reconciliation belongs to (its session renews the upstream token). */
export type ReconcileAccount = Pick<UpstreamAccount, 'apiKey' | 'enterpriseId'> & { sid: string };

/** Reconciliations with work left an account may have at once: a bound on a runaway script. */
export const MAX_ACTIVE_RECONCILIATIONS = 5;
const LIST_LIMIT = 50;

export interface ReconcileServiceDeps {
  store: ReconcileJobStore;
  plan: PlanDeps;
  runner: Pick<ReconcileRunner, 'kick' | 'cancel'>;
  config: Pick<Config, 'EXPORT_RETENTION_DAYS'>;
  /** The upstream page size background reads use now (a job keeps the one it was made with). */
  pageSize(): number | Promise<number>;
  log: Logger;
  now(): number;
}

const ownerOf = (account: ReconcileAccount): string => scopeOf(account).key;

export class ReconcileService {
  /** A running job's summary, worked out from its rows, kept until the job changes. */
  private readonly summaries = new Map<string, { updatedAt: number; summary: Reconciliation['summary'] }>();

  constructor(private readonly deps: ReconcileServiceDeps) {}

  private async ownJob(account: ReconcileAccount, id: string): Promise<ReconcileJobRecord> {
    const job = await this.deps.store.getJobFor(id, ownerOf(account));
    if (!job || (job.expiresAt !== null && job.expiresAt <= this.deps.now()))
      throw notFound(msg('reconcile.problems.notFound', { id: id.slice(0, 64) }));
    return job;
  }

  private async callsAhead(apiKey: string, except?: string): Promise<number> {
    const active = (await this.deps.store.activeJobs()).filter((j) => j.account === apiKey && j.id !== except);
    let calls = 0;
    for (const job of active) calls += Math.max(0, job.plan.calls - job.callsSpent);
    return calls;
  }

  private async present(job: ReconcileJobRecord): Promise<Reconciliation> {
    const [counts, tasks] = await Promise.all([
      this.deps.store.outcomeCounts(job.id),
      this.deps.store.taskCounts(job.id),
    ]);
    let summary = job.summary;
    if (!summary) {
      const known = this.summaries.get(job.id);
      if (known && known.updatedAt === job.updatedAt) summary = known.summary;
      else {
        summary = await summarizeJob(this.deps.store, job);
        this.summaries.set(job.id, { updatedAt: job.updatedAt, summary });
      }
    } else this.summaries.delete(job.id);
    let eta: string | null = null;
    if (isActiveReconcileState(job.state) && tasks.callsLeft > 0) {
      const plan = await this.deps.plan.gateway.planCalls(job.account, 'export', tasks.callsLeft, 0, ASSUMED_CALL_MS);
      eta = plan.finishAt === null ? null : new Date(plan.finishAt).toISOString();
    }
    return presentJob(job, summary, counts, tasks, eta);
  }

  async create(account: ReconcileAccount, input: ReconcileInput): Promise<ReconcileCreated> {
    const now = this.deps.now();
    const active = (await this.deps.store.activeJobs()).filter((j) => j.account === account.apiKey);
    if (active.length >= MAX_ACTIVE_RECONCILIATIONS) {
      throw new ProblemError({
        type: '/problems/too-many-reconciliations',
        title: msg('reconcile.problems.tooMany.title'),
        status: 409,
        detail: msg('reconcile.problems.tooMany.detail', { count: active.length }),
      });
    }
    const { rows, range, notes } = rowsOf(input, now);
    const pageSize = await this.deps.pageSize();
    const scope = scopeOf(account);
    const planned = await planRows(
      this.deps.plan,
      { apiKey: account.apiKey, enterpriseId: account.enterpriseId, scope: scope.key },
      input.list.kind,
      rows.filter((r) => r.outcome === 'pending'),
      pageSize,
      await this.callsAhead(account.apiKey),
      input.tz,
    );
    const byRow = new Map(planned.rows.map((r) => [r.row, r]));
    const stored: StoredRow[] = rows.map((r) => {
      const d = byRow.get(r.row);
      return d ? { ...r, outcome: d.outcome, matches: d.matches } : r;
    });
    const invalid = stored.filter((r) => r.outcome === 'invalid').length;
    const nothingLeft = planned.tasks.length === 0;
    // Free throughout (pages the cache holds): it runs at once, as a list the local history answers does.
    const free = !nothingLeft && planned.plan.calls === 0 && planned.plan.callsKnown === 'exact';
    const job: ReconcileJobRecord = {
      id: randomUUID(),
      account: account.apiKey,
      sid: account.sid,
      enterpriseId: account.enterpriseId,
      state: nothingLeft ? 'done' : free ? 'queued' : 'planned',
      kind: input.list.kind,
      tz: input.tz,
      source: input.source,
      columns: input.list.columns,
      valueColumn: input.list.valueColumn,
      range,
      expected: input.expected,
      pageSize,
      plan: { rows: stored.length, invalid, ...planned.plan },
      nextTaskId: planned.tasks.length + 1,
      summary: null,
      createdAt: now,
      updatedAt: now,
      startedAt: free || nothingLeft ? now : null,
      finishedAt: nothingLeft ? now : null,
      // Made and never started, it is forgotten after the same retention: its rows hold numbers.
      expiresAt: retentionEnd(now, this.deps.config),
      callsSpent: 0,
      pagesCached: 0,
      waitingUntil: null,
      message: null,
      notes,
      failures: 0,
      rereads: 0,
      signInNeededSince: null,
    };
    if (nothingLeft) {
      const tally = new SummaryTally(job.expected, job.tz);
      for (const r of stored) tally.add(r);
      job.summary = tally.summary();
    } else if (free) job.expiresAt = null;
    await this.deps.store.insertJob(job, ownerOf(account), stored, planned.tasks);
    this.deps.log.info('reconcile.created', {
      job: job.id,
      account: account.apiKey,
      rows: stored.length,
      local: planned.plan.local,
      calls: planned.plan.calls,
    });
    if (free) this.deps.runner.kick();
    const presented = await this.present(job);
    return { id: job.id, state: job.state, plan: job.plan, _links: presented._links };
  }

  /**
   * Starts a planned reconciliation. Its plan is made again first: days the local history completed
   * since cost nothing now, and the rows they answer are answered at once.
   */
  async start(account: ReconcileAccount, id: string): Promise<Reconciliation> {
    const job = await this.ownJob(account, id);
    if (job.state !== 'planned') {
      if (isActiveReconcileState(job.state)) return this.present(job);
      throw new ProblemError({
        type: '/problems/reconciliation-over',
        title: msg('reconcile.problems.over.title'),
        status: 409,
        detail: msg('reconcile.problems.over.detail', { state: job.state }),
      });
    }
    const pending: StoredRow[] = [];
    for (let after = 0; ;) {
      const batch = await this.deps.store.rowBatch(job.id, after, 5_000, { outcome: 'pending' });
      if (batch.length === 0) break;
      pending.push(...batch);
      after = batch[batch.length - 1]!.row;
    }
    const planned = await planRows(
      this.deps.plan,
      { apiKey: job.account, enterpriseId: job.enterpriseId, scope: ownerOf(account) },
      job.kind,
      pending,
      job.pageSize,
      await this.callsAhead(job.account, job.id),
      job.tz,
    );
    const now = this.deps.now();
    const changed = planned.rows.filter((r) => r.outcome !== 'pending' || r.matches.length > 0);
    Object.assign(job, {
      // With no task left, the runner's first step finishes it.
      state: 'queued',
      plan: { ...job.plan, ...planned.plan, local: job.plan.local + planned.plan.local },
      nextTaskId: planned.tasks.length + 1,
      startedAt: now,
      updatedAt: now,
      expiresAt: null,
      sid: account.sid,
    } satisfies Partial<ReconcileJobRecord>);
    await this.deps.store.replan(
      job,
      changed.map((r) => ({ row: r.row, matches: r.matches, outcome: r.outcome })),
      planned.tasks,
    );
    this.deps.log.info('reconcile.started', { job: job.id, account: job.account, calls: job.plan.calls });
    this.deps.runner.kick();
    return this.present(job);
  }

  async list(account: ReconcileAccount): Promise<Reconciliation[]> {
    const now = this.deps.now();
    const jobs = (await this.deps.store.listJobs(ownerOf(account), LIST_LIMIT)).filter(
      (j) => j.expiresAt === null || j.expiresAt > now,
    );
    // Someone of this account is here: a job waiting for a sign-in may go on now.
    if (jobs.some((j) => isActiveReconcileState(j.state))) this.deps.runner.kick();
    return Promise.all(jobs.map((j) => this.present(j)));
  }

  async get(account: ReconcileAccount, id: string): Promise<Reconciliation> {
    const job = await this.ownJob(account, id);
    if (isActiveReconcileState(job.state)) this.deps.runner.kick();
    return this.present(job);
  }

  async rows(
    account: ReconcileAccount,
    id: string,
    query: RowsQuery,
    locale: Locale = 'en',
  ): Promise<ReconcileRowsPage> {
    const job = await this.ownJob(account, id);
    const { pageSize } = query;
    const filter = {
      ...(query.outcome ? { outcome: query.outcome } : {}),
      ...(query.status ? { status: query.status } : {}),
    };
    const { rows, total } = await this.deps.store.rowsPage(job.id, filter, (query.page - 1) * pageSize, pageSize);
    return {
      rows: rows.map((r) => presentRow(r, job.columns, query.tz ?? job.tz, rowWords(locale))),
      page: query.page,
      pageSize,
      total,
      outcome: query.outcome,
      status: query.status,
    };
  }

  /** The answered list as CSV (a stream: one batch of rows in memory at a time) and its name. */
  async file(
    account: ReconcileAccount,
    id: string,
    opts: { excel: boolean; tz: Zone | null },
    locale: Locale = 'en',
  ): Promise<{ stream: Readable; fileName: string }> {
    const job = await this.ownJob(account, id);
    return {
      stream: answerFile(this.deps.store, job, opts.tz ?? job.tz, opts.excel, rowWords(locale)),
      fileName: reconcileFileName(job),
    };
  }

  /** Forgets a reconciliation: a running one stops (its call in flight is let go), and its rows are deleted. */
  async forget(account: ReconcileAccount, id: string): Promise<void> {
    const job = await this.ownJob(account, id);
    await this.deps.store.deleteJob(job.id);
    this.deps.runner.cancel(job.id);
    this.summaries.delete(job.id);
    this.deps.log.info('reconcile.deleted', { job: job.id, account: account.apiKey });
  }
}
