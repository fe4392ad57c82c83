import 'server-only';
/**
 * Reconciliations on the Kysely store (SQLite or PostgreSQL). A step's answer — the rows a page or
 * a lookup answered, the task's progress, the job — is written in one transaction before the next
 * upstream call, so a restart resumes at the first page not written and never pays for one twice.
 * A job deleted meanwhile (DELETE forgets it) rolls the step back: nothing of it is written again.
 */
import { sql, type Insertable, type Kysely, type Selectable, type Transaction } from 'kysely';
import { bulkInsert } from '../db/bulk-insert';
import type { Database, ReconcileRowsTable, ReconcileTasksTable } from '../db/schema';
import type { Outcome } from './api';
import type { ReconcileJobRecord, StoredMatch, StoredRow, StoredTask } from './job-row';

/** What a step changes of one row: the records it found for it, and its outcome when that is final now. */
export interface RowUpdate {
  row: number;
  matches: StoredMatch[];
  outcome: Outcome | 'pending';
}

/** Rows as a view asks for them. */
export interface RowFilter {
  outcome?: Outcome | 'pending';
  /** Only matched rows whose record has this status. */
  status?: string;
}

export interface ReconcileJobStore {
  /** Stores a new job of `owner` (lib/history/scope.ts key), its rows and its tasks, in one transaction. */
  insertJob(
    job: ReconcileJobRecord,
    owner: string,
    rows: readonly StoredRow[],
    tasks: readonly StoredTask[],
  ): Promise<void>;
  /** Writes the job; false when it was deleted meanwhile. */
  saveJob(job: ReconcileJobRecord): Promise<boolean>;
  getJob(id: string): Promise<ReconcileJobRecord | null>;
  /** The job, only when it belongs to `owner`. */
  getJobFor(id: string, owner: string): Promise<ReconcileJobRecord | null>;
  /** The owner's jobs, newest first. */
  listJobs(owner: string, limit: number): Promise<ReconcileJobRecord[]>;
  /** Jobs with work left (queued, running, waiting), oldest first. */
  activeJobs(): Promise<ReconcileJobRecord[]>;
  /**
   * Writes a step: the rows' answers, the tasks changed or added, and the job, in one transaction.
   * Throws ReconcileJobGoneError (nothing written) when the job was deleted meanwhile.
   */
  commitStep(
    job: ReconcileJobRecord,
    change: { rows?: readonly RowUpdate[]; tasks?: readonly StoredTask[] },
  ): Promise<void>;
  /** The job's pending rows holding one of `values` (a page's records find the rows they answer). */
  pendingRowsWith(jobId: string, values: readonly string[]): Promise<StoredRow[]>;
  /** Distinct values of the pending rows whose span meets [from, to]: what a window still has to answer. */
  pendingValuesIn(jobId: string, from: number, to: number): Promise<{ value: string; from: number; to: number }[]>;
  /** Whether a pending row holds `value`. */
  hasPending(jobId: string, value: string): Promise<boolean>;
  /** The job's rows from row `after` on, `limit` at a time, in the upload's order (keyset paging). */
  rowBatch(jobId: string, after: number, limit: number, filter?: RowFilter): Promise<StoredRow[]>;
  /** The rows that pass `filter`, `limit` from `offset` (the rows view). */
  rowsPage(
    jobId: string,
    filter: RowFilter,
    offset: number,
    limit: number,
  ): Promise<{ rows: StoredRow[]; total: number }>;
  /** Rows by outcome (pending included). */
  outcomeCounts(jobId: string): Promise<Record<Outcome | 'pending', number>>;
  tasks(jobId: string): Promise<StoredTask[]>;
  /** The first task with work left, in run order. */
  nextTask(jobId: string): Promise<StoredTask | null>;
  /** Tasks done and all (replaced ones left out), and the calls the pending ones still need at least. */
  taskCounts(jobId: string): Promise<{ done: number; total: number; callsLeft: number }>;
  /** The job's tasks replaced by `tasks` (a plan made again at start), and its rows' answers updated. */
  replan(job: ReconcileJobRecord, rows: readonly RowUpdate[], tasks: readonly StoredTask[]): Promise<void>;
  /** Every pending row's final outcome from what it found (none: not found; one: matched; more: several). */
  finishRows(jobId: string): Promise<void>;
  /** Deletes the job, its rows and its tasks. */
  deleteJob(jobId: string): Promise<void>;
  /** Jobs whose retention ran out. */
  expiredJobs(now: number): Promise<string[]>;
}

/** A job deleted while a step ran: its step writes nothing. */
export class ReconcileJobGoneError extends Error {
  constructor(readonly jobId: string) {
    super(`reconciliation ${jobId} was deleted meanwhile`);
    this.name = 'ReconcileJobGoneError';
  }
}

/** Rows per INSERT: far below either dialect's parameter limit (14 columns a row). */
const INSERT_BATCH = 500;
/** Rows deleted per statement: each is overwritten on disk (secure_delete); requests go in between. */
const DELETE_BATCH = 2000;

type RowSelect = Selectable<ReconcileRowsTable>;

function toRow(r: RowSelect): StoredRow {
  return {
    row: r.row_no,
    value: r.value,
    spanFrom: r.span_from,
    spanTo: r.span_to,
    sentAt: r.sent_at,
    cost: r.cost,
    cells: JSON.parse(r.cells) as string[],
    outcome: r.outcome as StoredRow['outcome'],
    problem: r.problem ? (JSON.parse(r.problem) as StoredRow['problem']) : null,
    matches: r.matches ? (JSON.parse(r.matches) as StoredMatch[]) : [],
  };
}

function rowInsert(jobId: string, r: StoredRow): Insertable<ReconcileRowsTable> {
  return {
    job_id: jobId,
    row_no: r.row,
    value: r.value,
    span_from: r.spanFrom,
    span_to: r.spanTo,
    sent_at: r.sentAt,
    cost: r.cost,
    cells: JSON.stringify(r.cells),
    outcome: r.outcome,
    found: r.matches.length,
    status: statusOf(r.matches, r.outcome),
    problem: r.problem ? JSON.stringify(r.problem) : null,
    matches: r.matches.length > 0 ? JSON.stringify(r.matches) : null,
  };
}

/** The status a row is filtered by: its one record's (a row of several records has none of its own). */
function statusOf(matches: readonly StoredMatch[], outcome: StoredRow['outcome']): string | null {
  return matches.length === 1 && outcome !== 'several' ? matches[0]!.delivery_status : null;
}

function toTask(t: Selectable<ReconcileTasksTable>): StoredTask {
  return {
    id: t.id,
    kind: t.kind as StoredTask['kind'],
    param: t.param as StoredTask['param'],
    value: t.value,
    from: t.from_ms,
    to: t.to_ms,
    state: t.state as StoredTask['state'],
    totalFound: t.total_found,
    pagesDone: t.pages_done,
    pagesTotal: t.pages_total,
  };
}

function taskRow(jobId: string, t: StoredTask): ReconcileTasksTable {
  return {
    job_id: jobId,
    id: t.id,
    kind: t.kind,
    param: t.param,
    value: t.value,
    from_ms: t.from,
    to_ms: t.to,
    state: t.state,
    total_found: t.totalFound,
    pages_done: t.pagesDone,
    pages_total: t.pagesTotal,
  };
}

const parseJob = (row: { data: string } | undefined): ReconcileJobRecord | null =>
  row ? (JSON.parse(row.data) as ReconcileJobRecord) : null;

function* batches<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

export function createReconcileJobStore(db: Kysely<Database>): ReconcileJobStore {
  const save = async (q: Kysely<Database>, job: ReconcileJobRecord): Promise<boolean> => {
    const done = await q
      .updateTable('reconcile_jobs')
      .set({ state: job.state, expires_at: job.expiresAt, data: JSON.stringify(job) })
      .where('id', '=', job.id)
      .executeTakeFirst();
    return Number(done.numUpdatedRows) > 0;
  };
  const insertRows = async (trx: Transaction<Database>, jobId: string, rows: readonly StoredRow[]) => {
    for (const batch of batches(rows, INSERT_BATCH)) {
      const values = batch.map((r) => rowInsert(jobId, r));
      await bulkInsert(trx, 'reconcile_rows', values, () => trx.insertInto('reconcile_rows').values(values));
    }
  };
  const upsertTasks = async (trx: Transaction<Database>, jobId: string, tasks: readonly StoredTask[]) => {
    for (const t of tasks) {
      const row = taskRow(jobId, t);
      await trx
        .insertInto('reconcile_tasks')
        .values(row)
        .onConflict((oc) =>
          oc.columns(['job_id', 'id']).doUpdateSet({
            state: row.state,
            total_found: row.total_found,
            pages_done: row.pages_done,
            pages_total: row.pages_total,
          }),
        )
        .execute();
    }
  };
  const updateRows = async (trx: Transaction<Database>, jobId: string, rows: readonly RowUpdate[]) => {
    for (const r of rows) {
      await trx
        .updateTable('reconcile_rows')
        .set({
          outcome: r.outcome,
          found: r.matches.length,
          status: statusOf(r.matches, r.outcome),
          matches: r.matches.length > 0 ? JSON.stringify(r.matches) : null,
        })
        .where('job_id', '=', jobId)
        .where('row_no', '=', r.row)
        .execute();
    }
  };
  const filtered = (jobId: string, filter: RowFilter) =>
    db
      .selectFrom('reconcile_rows')
      .where('job_id', '=', jobId)
      .$if(filter.outcome !== undefined, (q) => q.where('outcome', '=', filter.outcome!))
      .$if(filter.status !== undefined, (q) => q.where('status', '=', filter.status!));

  return {
    async insertJob(job, owner, rows, tasks) {
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('reconcile_jobs')
          .values({
            id: job.id,
            account: job.account,
            owner,
            state: job.state,
            created_at: job.createdAt,
            expires_at: job.expiresAt,
            data: JSON.stringify(job),
          })
          .execute();
        await insertRows(trx, job.id, rows);
        await upsertTasks(trx, job.id, tasks);
      });
    },
    saveJob: (job) => save(db, job),
    async getJob(id) {
      return parseJob(await db.selectFrom('reconcile_jobs').select('data').where('id', '=', id).executeTakeFirst());
    },
    async getJobFor(id, owner) {
      return parseJob(
        await db
          .selectFrom('reconcile_jobs')
          .select('data')
          .where('id', '=', id)
          .where('owner', '=', owner)
          .executeTakeFirst(),
      );
    },
    async listJobs(owner, limit) {
      const rows = await db
        .selectFrom('reconcile_jobs')
        .select('data')
        .where('owner', '=', owner)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((r) => parseJob(r)!);
    },
    async activeJobs() {
      const rows = await db
        .selectFrom('reconcile_jobs')
        .select('data')
        .where('state', 'in', ['queued', 'running', 'waiting'])
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map((r) => parseJob(r)!);
    },
    async commitStep(job, change) {
      await db.transaction().execute(async (trx) => {
        if (change.rows) await updateRows(trx, job.id, change.rows);
        if (change.tasks) await upsertTasks(trx, job.id, change.tasks);
        if (!(await save(trx, job))) throw new ReconcileJobGoneError(job.id);
      });
    },
    async pendingRowsWith(jobId, values) {
      if (values.length === 0) return [];
      const rows = await db
        .selectFrom('reconcile_rows')
        .selectAll()
        .where('job_id', '=', jobId)
        .where('value', 'in', [...new Set(values)])
        .where('outcome', '=', 'pending')
        .execute();
      return rows.map(toRow);
    },
    async pendingValuesIn(jobId, from, to) {
      return db
        .selectFrom('reconcile_rows')
        .select((eb) => ['value', eb.fn.min('span_from').as('from'), eb.fn.max('span_to').as('to')])
        .where('job_id', '=', jobId)
        .where('outcome', '=', 'pending')
        .where('span_from', '<=', to)
        .where('span_to', '>=', from)
        .groupBy('value')
        .execute() as Promise<{ value: string; from: number; to: number }[]>;
    },
    async hasPending(jobId, value) {
      const row = await db
        .selectFrom('reconcile_rows')
        .select('row_no')
        .where('job_id', '=', jobId)
        .where('value', '=', value)
        .where('outcome', '=', 'pending')
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },
    async rowBatch(jobId, after, limit, filter = {}) {
      const rows = await filtered(jobId, filter)
        .selectAll()
        .where('row_no', '>', after)
        .orderBy('row_no')
        .limit(limit)
        .execute();
      return rows.map(toRow);
    },
    async rowsPage(jobId, filter, offset, limit) {
      const [rows, count] = await Promise.all([
        filtered(jobId, filter).selectAll().orderBy('row_no').limit(limit).offset(offset).execute(),
        filtered(jobId, filter)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { rows: rows.map(toRow), total: Number(count.n) };
    },
    async outcomeCounts(jobId) {
      const counts = { pending: 0, matched: 0, not_found: 0, several: 0, invalid: 0 };
      const rows = await db
        .selectFrom('reconcile_rows')
        .select((eb) => ['outcome', eb.fn.countAll<number>().as('n')])
        .where('job_id', '=', jobId)
        .groupBy('outcome')
        .execute();
      for (const r of rows) counts[r.outcome as keyof typeof counts] = Number(r.n);
      return counts;
    },
    async tasks(jobId) {
      const rows = await db
        .selectFrom('reconcile_tasks')
        .selectAll()
        .where('job_id', '=', jobId)
        .orderBy('id')
        .execute();
      return rows.map(toTask);
    },
    async nextTask(jobId) {
      const row = await db
        .selectFrom('reconcile_tasks')
        .selectAll()
        .where('job_id', '=', jobId)
        .where('state', '=', 'pending')
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      return row ? toTask(row) : null;
    },
    async taskCounts(jobId) {
      const [rows, left] = await Promise.all([
        db
          .selectFrom('reconcile_tasks')
          .select((eb) => ['state', eb.fn.countAll<number>().as('n')])
          .where('job_id', '=', jobId)
          .where('state', '<>', 'replaced')
          .groupBy('state')
          .execute(),
        // A lookup is a call; a query its pages left once its size is known, else at least its first.
        db
          .selectFrom('reconcile_tasks')
          .select(
            sql<number>`coalesce(sum(case when pages_total is null then 1 else pages_total - pages_done end), 0)`.as(
              'calls',
            ),
          )
          .where('job_id', '=', jobId)
          .where('state', '=', 'pending')
          .executeTakeFirstOrThrow(),
      ]);
      const n = (state: string) => Number(rows.find((r) => r.state === state)?.n ?? 0);
      return { done: n('done'), total: n('done') + n('pending'), callsLeft: Number(left.calls) };
    },
    async replan(job, rows, tasks) {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('reconcile_tasks').where('job_id', '=', job.id).execute();
        await updateRows(trx, job.id, rows);
        await upsertTasks(trx, job.id, tasks);
        if (!(await save(trx, job))) throw new ReconcileJobGoneError(job.id);
      });
    },
    async finishRows(jobId) {
      const pending = (q: Kysely<Database>) =>
        q.updateTable('reconcile_rows').where('job_id', '=', jobId).where('outcome', '=', 'pending');
      await db.transaction().execute(async (trx) => {
        await pending(trx).set({ outcome: 'not_found' }).where('found', '=', 0).execute();
        await pending(trx).set({ outcome: 'matched' }).where('found', '=', 1).execute();
        await pending(trx).set({ outcome: 'several', status: null }).where('found', '>', 1).execute();
      });
    },
    async deleteJob(jobId) {
      // The job first: a step running meanwhile then finds it gone and writes nothing back.
      await db.deleteFrom('reconcile_jobs').where('id', '=', jobId).execute();
      for (;;) {
        const batch = db.selectFrom('reconcile_rows').select('row_no').where('job_id', '=', jobId).limit(DELETE_BATCH);
        const { numDeletedRows } = await db
          .deleteFrom('reconcile_rows')
          .where('job_id', '=', jobId)
          .where('row_no', 'in', batch)
          .executeTakeFirst();
        if (Number(numDeletedRows) < DELETE_BATCH) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
      await db.deleteFrom('reconcile_tasks').where('job_id', '=', jobId).execute();
    },
    async expiredJobs(now) {
      const rows = await db
        .selectFrom('reconcile_jobs')
        .select('id')
        .where('expires_at', 'is not', null)
        .where('expires_at', '<=', now)
        .execute();
      return rows.map((r) => r.id);
    },
  };
}
