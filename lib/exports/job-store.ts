import 'server-only';
/**
 * Export jobs on the Kysely store (SQLite or PostgreSQL): the asynchronous twin of `ExportStore`
 * (./exports.ts), with the same operations and the same rules. A page's records and the job's
 * progress are written in one transaction before the next upstream call, so a crash at any point
 * resumes at the first page not written and never pays for a page twice. Records are de-duplicated
 * by trx_id as they are written, in the order they arrived, so the file streams out in the query's
 * order with each record once. A record's twin is looked for among the rows received within the
 * page's span of time (a transaction's received time does not change; a page re-sent or shifted,
 * a split window read again, carries the same records at the same times): the index that finds
 * them is ordered by received time (migration 0023), so a page's rows are written side by side in
 * it instead of on a hundred pages. Rows whose received time cannot be read are compared with
 * every page.
 *
 * One worker writes a job at a time (the runner's rule); two writing the same page at once would
 * meet the UNIQUE constraint and one of them would fail whole, leaving nothing half-written.
 */
import type { Insertable, Kysely } from 'kysely';
import { bulkInsert } from '../db/bulk-insert';
import type { Database, ExportRowsTable, SqlDialect } from '../db/schema';
import { admitJob, type Admission, type AdmissionLimits } from './job-admission';
import type { AppendResult, ExportJobRecord, StoredRow } from './job-row';

export interface ExportJobStore {
  /** Stores a new job of `owner` (the account's key: API key and enterprise, lib/history/scope.ts). */
  insertJob(job: ExportJobRecord, owner: string): Promise<void>;
  /**
   * Stores a new job only while its account (API key) is within `limits`: fewer active exports
   * than maxActive and fewer bytes than maxBytes, counted and inserted as one step (./job-admission.ts).
   */
  insertJobWithin(job: ExportJobRecord, owner: string, limits: AdmissionLimits): Promise<Admission>;
  /** Writes the job, unless it was cancelled meanwhile and this is not the cancel (a cancel is for good). */
  saveJob(job: ExportJobRecord): Promise<void>;
  getJob(id: string): Promise<ExportJobRecord | null>;
  /** The job, only when it belongs to `owner`. */
  getJobFor(id: string, owner: string): Promise<ExportJobRecord | null>;
  /** The owner's jobs, newest first. */
  listJobs(owner: string, limit: number): Promise<ExportJobRecord[]>;
  /** Jobs with work left (queued, running, waiting), oldest first. */
  activeJobs(): Promise<ExportJobRecord[]>;
  /**
   * Writes a page's records and, in the same transaction, the job as `apply` leaves it (apply gets
   * what the write found and updates the job's counters). If anything throws, nothing is written;
   * a job cancelled meanwhile throws ExportJobCancelledError.
   */
  commitPage(
    job: ExportJobRecord,
    windowId: number,
    rows: readonly StoredRow[],
    apply: (result: AppendResult) => void | Promise<void>,
  ): Promise<AppendResult>;
  /** Records in arrival order, `limit` at a time after row id `afterId` (keyset paging). */
  rowBatch(jobId: string, afterId: number, limit: number): Promise<{ id: number; body: string }[]>;
  countRows(jobId: string): Promise<number>;
  deleteRows(jobId: string): Promise<void>;
  /** Deletes the job and its records (its file is the file store's: ./file-store.ts). */
  deleteJob(jobId: string): Promise<void>;
  /** Finished jobs whose retention ran out. */
  expiredJobs(now: number): Promise<string[]>;
}

/** Rows per INSERT: far below either dialect's parameter limit. */
const BATCH = 500;

/** Rows deleted per statement when a job's rows go (see deleteRows). */
const DELETE_BATCH = 2000;

function* batches<T>(items: readonly T[]): Generator<T[]> {
  for (let i = 0; i < items.length; i += BATCH) yield items.slice(i, i + BATCH);
}

type ExportRowInsert = Insertable<ExportRowsTable>;

/**
 * The job's stored rows that may be twins of `rows`: those received within the page's span of
 * time, and those whose received time is not known (null sorts apart, so it is a second lookup).
 * Read through the time-ordered index; the caller matches trx_ids.
 */
async function twinsOf(
  trx: Kysely<Database>,
  jobId: string,
  rows: readonly StoredRow[],
): Promise<{ id: number; trx_id: string; win: number }[]> {
  const trxIds = new Set(rows.map((r) => r.trxId));
  let first = Infinity;
  let last = -Infinity;
  for (const { receivedMs } of rows) {
    if (receivedMs === null) continue;
    first = Math.min(first, receivedMs);
    last = Math.max(last, receivedMs);
  }
  const stored = trx.selectFrom('export_rows').select(['id', 'trx_id', 'win']).where('job_id', '=', jobId);
  const found = await stored.where('received_ms', 'is', null).execute();
  if (first <= last)
    found.push(...(await stored.where('received_ms', '>=', first).where('received_ms', '<=', last).execute()));
  return found.filter((f) => trxIds.has(f.trx_id));
}

const parse = (row: { data: string } | undefined): ExportJobRecord | null =>
  row ? (JSON.parse(row.data) as ExportJobRecord) : null;

/**
 * A cancelled job is cancelled for good: a step that read the job before the cancel and writes it
 * back after (a page, a wait) must not make it active again. Its page is not kept either.
 */
export class ExportJobCancelledError extends Error {
  constructor(readonly jobId: string) {
    super(`export ${jobId} was cancelled meanwhile`);
    this.name = 'ExportJobCancelledError';
  }
}

export function createExportJobStore(db: Kysely<Database>, dialect: SqlDialect): ExportJobStore {
  /** Writes the job unless it was cancelled meanwhile (only a cancel writes over a cancel); answers whether it did. */
  const save = async (q: Kysely<Database>, job: ExportJobRecord): Promise<boolean> => {
    const done = await q
      .updateTable('export_jobs')
      .set({ state: job.state, expires_at: job.expiresAt, data: JSON.stringify(job) })
      .where('id', '=', job.id)
      .$if(job.state !== 'cancelled', (u) => u.where('state', '<>', 'cancelled'))
      .executeTakeFirst();
    return Number(done.numUpdatedRows) > 0;
  };

  return {
    async insertJob(job, owner) {
      await db
        .insertInto('export_jobs')
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
    },
    insertJobWithin: (job, owner, limits) => admitJob(db, dialect, job, owner, limits),
    saveJob: async (job) => {
      await save(db, job);
    },
    async getJob(id) {
      return parse(await db.selectFrom('export_jobs').select('data').where('id', '=', id).executeTakeFirst());
    },
    async getJobFor(id, owner) {
      return parse(
        await db
          .selectFrom('export_jobs')
          .select('data')
          .where('id', '=', id)
          .where('owner', '=', owner)
          .executeTakeFirst(),
      );
    },
    async listJobs(owner, limit) {
      const rows = await db
        .selectFrom('export_jobs')
        .select('data')
        .where('owner', '=', owner)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((r) => parse(r)!);
    },
    async activeJobs() {
      const rows = await db
        .selectFrom('export_jobs')
        .select('data')
        .where('state', 'in', ['queued', 'running', 'waiting'])
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map((r) => parse(r)!);
    },

    async commitPage(job, windowId, rows, apply) {
      return db.transaction().execute(async (trx) => {
        const split = new Set(job.windows.filter((w) => w.state === 'split').map((w) => w.id));
        // Which window holds each trx_id now (and the row it is in); updated as this page is
        // decided, so a record the page carries twice counts as this window's duplicate, as it
        // would row by row.
        const holder = new Map<string, { win: number; id?: number }>();
        for (const found of await twinsOf(trx, job.id, rows))
          holder.set(found.trx_id, { win: found.win, id: found.id });
        const result: AppendResult = { inserted: 0, sameWindow: 0, otherWindow: 0, claimed: 0 };
        const inserts = new Map<string, ExportRowInsert>();
        const claims = new Map<number, string>();
        for (const row of rows) {
          const held = holder.get(row.trxId);
          if (held === undefined) {
            inserts.set(row.trxId, {
              job_id: job.id,
              received_ms: row.receivedMs,
              trx_id: row.trxId,
              win: windowId,
              body: row.body,
            });
            result.inserted += 1;
          } else if (split.has(held.win)) {
            // Keeps its place in the file (it was read first) and takes the newer copy of the record:
            // a stored row's, or (a page of a split window carrying it twice) the one about to be.
            if (held.id === undefined) inserts.get(row.trxId)!.body = row.body;
            else claims.set(held.id, row.body);
            result.claimed += 1;
          } else if (held.win === windowId) result.sameWindow += 1;
          else result.otherWindow += 1;
          holder.set(row.trxId, { ...held, win: windowId });
        }
        // One multi-row INSERT per batch numbers the rows in the order given: arrival order.
        for (const batch of batches([...inserts.values()]))
          await bulkInsert(trx, 'export_rows', batch, () => trx.insertInto('export_rows').values(batch));
        for (const [id, body] of claims) {
          await trx.updateTable('export_rows').set({ win: windowId, body }).where('id', '=', id).execute();
        }
        await apply(result);
        // Cancelled meanwhile: the transaction is rolled back, the page's rows with it.
        if (!(await save(trx, job))) throw new ExportJobCancelledError(job.id);
        return result;
      });
    },

    async rowBatch(jobId, afterId, limit) {
      return db
        .selectFrom('export_rows')
        .select(['id', 'body'])
        .where('job_id', '=', jobId)
        .where('id', '>', afterId)
        .orderBy('id')
        .limit(limit)
        .execute();
    },
    async countRows(jobId) {
      const row = await db
        .selectFrom('export_rows')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('job_id', '=', jobId)
        .executeTakeFirstOrThrow();
      return row.n;
    },
    async deleteRows(jobId) {
      // A few thousand rows at a time, letting requests in between: each deleted row is
      // overwritten on disk (secure_delete), and a large export's rows in one statement would hold
      // the server for a noticeable time.
      for (;;) {
        const ids = db.selectFrom('export_rows').select('id').where('job_id', '=', jobId).limit(DELETE_BATCH);
        const { numDeletedRows } = await db.deleteFrom('export_rows').where('id', 'in', ids).executeTakeFirst();
        if (Number(numDeletedRows) < DELETE_BATCH) return;
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
    async deleteJob(jobId) {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('export_rows').where('job_id', '=', jobId).execute();
        await trx.deleteFrom('export_jobs').where('id', '=', jobId).execute();
      });
    },
    async expiredJobs(now) {
      const rows = await db
        .selectFrom('export_jobs')
        .select('id')
        .where('expires_at', 'is not', null)
        .where('expires_at', '<=', now)
        .execute();
      return rows.map((r) => r.id);
    },
  };
}
