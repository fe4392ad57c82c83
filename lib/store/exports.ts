import 'server-only';
/**
 * The durable side of export jobs: the job (state, windows, counters) and every record fetched so
 * far. A page's records and the job's progress are written in one transaction before the next
 * upstream call, so a crash at any point resumes at the first page not written and never pays for a
 * page twice. Records are de-duplicated by trx_id as they are written (UNIQUE per job), in the order
 * they arrived, so the file streams out in the query's order with each record once.
 */
import type { CdrFieldKey } from '../cdr/fields';
import type { ExportCountCheck, ExportState } from '../api/exports';
import type { Filters } from '../query/filters';
import type { SortOrder } from '../query/query';
import type { Zone } from '../time/zones';
import type { Statement } from 'better-sqlite3';
import type { Db } from './db';
import type { VaultEntry } from './vault';

export interface StoredWindow {
  id: number;
  /** Instants (ms), whole seconds, inclusive. */
  from: number;
  to: number;
  /** `split`: found too deep for the upstream and replaced by narrower windows (kept for accounting). */
  state: 'pending' | 'done' | 'split';
  totalFound: number | null;
  pagesDone: number;
  pagesTotal: number | null;
  /** Rows the upstream sent for this window, before de-duplication. */
  received: number;
}

export interface StoredExportQuery {
  from: number;
  /** The frozen end. */
  to: number;
  /** The end asked for when it lay in the future, else null. */
  requestedTo: number | null;
  tz: Zone;
  sortOrder: SortOrder;
  /** The column the file is ordered by (absent: received time, the upstream's order). */
  sort?: CdrFieldKey;
  filters: Filters;
}

export interface ExportJobRecord {
  id: string;
  /** The API key the job belongs to: only its sessions may see it. */
  account: string;
  /** The session that created it (its vault entry renews the upstream token). */
  sid: string;
  enterpriseId: string | null;
  state: ExportState;
  createdAt: number;
  updatedAt: number;
  finishedAt: number | null;
  /** When the finished job and its file are deleted. */
  expiresAt: number | null;
  query: StoredExportQuery;
  columns: CdrFieldKey[];
  fileName: string;
  /** The upstream page size the job pages with (fixed at creation: page numbers depend on it). */
  pageSize: number;
  /** In reading order (the query's sort order); split windows stay, marked `split`. */
  windows: StoredWindow[];
  nextWindowId: number;
  waitingUntil: number | null;
  message: string | null;
  warnings: string[];
  callsSpent: number;
  pagesCached: number;
  /** Distinct records stored. */
  recordsFetched: number;
  /** Records received again (any cause) and stored once. */
  duplicates: number;
  /** Of those, records two different windows both returned. */
  overlapDuplicates: number;
  /** Consecutive failed attempts at the current page (for the backoff). */
  failures: number;
  /** The upstream refused the stored credentials then: only a session signed in later can help. */
  signInNeededSince: number | null;
  countCheck: ExportCountCheck | null;
  fileBytes: number | null;
}

export interface StoredRow {
  trxId: string;
  /** The record as JSON (the job's columns, UTC timestamps). */
  body: string;
}

export interface AppendResult {
  /** New records. */
  inserted: number;
  /** Records this window had already returned. */
  sameWindow: number;
  /** Records another (non-split) window had already returned. */
  otherWindow: number;
  /** Records first read by a window that was later split, now taken over by this one. */
  claimed: number;
}

export interface ExportStore {
  insertJob(job: ExportJobRecord): void;
  saveJob(job: ExportJobRecord): void;
  getJob(id: string): ExportJobRecord | null;
  /** The job, only when it belongs to `account`. */
  getJobFor(id: string, account: string): ExportJobRecord | null;
  listJobs(account: string, limit: number): ExportJobRecord[];
  /** Jobs with work left (queued, running, waiting), oldest first. */
  activeJobs(): ExportJobRecord[];
  /**
   * Writes a page's records and, in the same transaction, the job as `apply` leaves it (apply gets
   * what the write found and updates the job's counters).
   */
  commitPage(job: ExportJobRecord, windowId: number, rows: readonly StoredRow[], apply: (result: AppendResult) => void): AppendResult;
  /** Records in arrival order, `limit` at a time after row id `afterId` (keyset paging). */
  rowBatch(jobId: string, afterId: number, limit: number): { id: number; body: string }[];
  countRows(jobId: string): number;
  deleteRows(jobId: string): void;
  deleteJob(jobId: string): void;
  /** Finished jobs whose retention ran out. */
  expiredJobs(now: number): string[];
  /**
   * A live session of the API key to renew tokens with: `sid` itself when it is still open, else
   * the newest other one; with `createdAfter`, only a session signed in after that moment.
   */
  liveSession(apiKey: string, sid: string, now: number, createdAfter: number | null): VaultEntry | null;
}

export function createSqliteExportStore(db: Db): ExportStore {
  db.exec(`
    CREATE TABLE IF NOT EXISTS export_jobs (
      id TEXT PRIMARY KEY,
      account TEXT NOT NULL,
      state TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      expires_at INTEGER,
      data TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS export_jobs_account ON export_jobs (account, created_at);
    CREATE INDEX IF NOT EXISTS export_jobs_state ON export_jobs (state);
    CREATE TABLE IF NOT EXISTS export_rows (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      job_id TEXT NOT NULL,
      trx_id TEXT NOT NULL,
      win INTEGER NOT NULL,
      body TEXT NOT NULL,
      UNIQUE (job_id, trx_id)
    );
    CREATE INDEX IF NOT EXISTS export_rows_job ON export_rows (job_id, id);
  `);
  const insertJob = db.prepare('INSERT INTO export_jobs (id, account, state, created_at, expires_at, data) VALUES (?, ?, ?, ?, ?, ?)');
  const updateJob = db.prepare('UPDATE export_jobs SET state = ?, expires_at = ?, data = ? WHERE id = ?');
  const getJob = db.prepare('SELECT data FROM export_jobs WHERE id = ?').pluck();
  const getJobFor = db.prepare('SELECT data FROM export_jobs WHERE id = ? AND account = ?').pluck();
  const listJobs = db.prepare('SELECT data FROM export_jobs WHERE account = ? ORDER BY created_at DESC, id DESC LIMIT ?').pluck();
  const activeJobs = db.prepare("SELECT data FROM export_jobs WHERE state IN ('queued', 'running', 'waiting') ORDER BY created_at, id").pluck();
  const findRow = db.prepare('SELECT win FROM export_rows WHERE job_id = ? AND trx_id = ?').pluck();
  const insertRow = db.prepare('INSERT INTO export_rows (job_id, trx_id, win, body) VALUES (?, ?, ?, ?)');
  const claimRow = db.prepare('UPDATE export_rows SET win = ?, body = ? WHERE job_id = ? AND trx_id = ?');
  const rowBatch = db.prepare('SELECT id, body FROM export_rows WHERE job_id = ? AND id > ? ORDER BY id LIMIT ?');
  const countRows = db.prepare('SELECT count(*) FROM export_rows WHERE job_id = ?').pluck();
  const deleteRows = db.prepare('DELETE FROM export_rows WHERE job_id = ?');
  const deleteJob = db.prepare('DELETE FROM export_jobs WHERE id = ?');
  const expired = db.prepare('SELECT id FROM export_jobs WHERE expires_at IS NOT NULL AND expires_at <= ?').pluck();
  // The vault's table (lib/store/vault.ts) read directly: the vault has no "any session of this key".
  // Prepared on first use, as the vault creates that table.
  let sessionQueries: { bySid: Statement<unknown[]>; newest: Statement<unknown[]> } | undefined;
  const sessions = () =>
    (sessionQueries ??= {
      bySid: db.prepare('SELECT * FROM sessions WHERE sid = ? AND api_key = ? AND expires_at > ? AND created_at > ?'),
      newest: db.prepare('SELECT * FROM sessions WHERE api_key = ? AND expires_at > ? AND created_at > ? ORDER BY created_at DESC LIMIT 1'),
    });

  const parse = (data: unknown): ExportJobRecord | null => (typeof data === 'string' ? (JSON.parse(data) as ExportJobRecord) : null);
  const save = (job: ExportJobRecord) => updateJob.run(job.state, job.expiresAt, JSON.stringify(job), job.id);

  const commit = db.transaction((job: ExportJobRecord, windowId: number, rows: readonly StoredRow[], apply: (r: AppendResult) => void) => {
    const split = new Set(job.windows.filter((w) => w.state === 'split').map((w) => w.id));
    const result: AppendResult = { inserted: 0, sameWindow: 0, otherWindow: 0, claimed: 0 };
    for (const row of rows) {
      const win = findRow.get(job.id, row.trxId) as number | undefined;
      if (win === undefined) {
        insertRow.run(job.id, row.trxId, windowId, row.body);
        result.inserted += 1;
      } else if (split.has(win)) {
        // Keeps its place in the file (it was read first) and the newer copy of the record.
        claimRow.run(windowId, row.body, job.id, row.trxId);
        result.claimed += 1;
      } else if (win === windowId) result.sameWindow += 1;
      else result.otherWindow += 1;
    }
    apply(result);
    save(job);
    return result;
  });

  type SessionRow = { sid: string; api_key: string; enterprise_id: string | null; sealed_secret: string; created_at: number; expires_at: number };
  const toEntry = (row: SessionRow | undefined): VaultEntry | null =>
    row
      ? { sid: row.sid, apiKey: row.api_key, enterpriseId: row.enterprise_id, sealedSecret: row.sealed_secret, createdAt: row.created_at, expiresAt: row.expires_at }
      : null;

  return {
    insertJob(job) {
      insertJob.run(job.id, job.account, job.state, job.createdAt, job.expiresAt, JSON.stringify(job));
    },
    saveJob: (job) => {
      save(job);
    },
    getJob: (id) => parse(getJob.get(id)),
    getJobFor: (id, account) => parse(getJobFor.get(id, account)),
    listJobs: (account, limit) => (listJobs.all(account, limit) as string[]).map((d) => parse(d) as ExportJobRecord),
    activeJobs: () => (activeJobs.all() as string[]).map((d) => parse(d) as ExportJobRecord),
    commitPage: (job, windowId, rows, apply) => commit(job, windowId, rows, apply),
    rowBatch: (jobId, afterId, limit) => rowBatch.all(jobId, afterId, limit) as { id: number; body: string }[],
    countRows: (jobId) => countRows.get(jobId) as number,
    deleteRows(jobId) {
      deleteRows.run(jobId);
    },
    deleteJob(jobId) {
      deleteRows.run(jobId);
      deleteJob.run(jobId);
    },
    expiredJobs: (now) => expired.all(now) as string[],
    liveSession(apiKey, sid, now, createdAfter) {
      const after = createdAfter ?? -1;
      const q = sessions();
      return toEntry(q.bySid.get(sid, apiKey, now, after) as SessionRow | undefined) ?? toEntry(q.newest.get(apiKey, now, after) as SessionRow | undefined);
    },
  };
}
