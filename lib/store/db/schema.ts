import 'server-only';
/**
 * The tables of the durable store, as Kysely sees them: one interface for both dialects. Times are
 * epoch milliseconds (bigint in PostgreSQL, parsed back to numbers: see postgres-pool.ts); JSON is
 * kept as text, exactly as the stores wrote it before Kysely. The tables themselves are created by
 * the migrations in ./migrations, which must agree with these types.
 */
import type { Generated } from 'kysely';
import type { CallClass } from '../../governor/classes';

/** The governor's ledger: every upstream call, written before it is sent (lib/store/ledger.ts). */
export interface UpstreamCallsTable {
  id: Generated<number>;
  account: string;
  at: number;
  kind: string;
  /** Whose call it was (lib/governor/classes.ts). */
  class: Generated<CallClass>;
  outcome: string | null;
}

/** Accounts the upstream answered 429 for, and until when. */
export interface UpstreamBlocksTable {
  account: string;
  until: number;
}

/** Upstream result pages, by account and normalised query (lib/store/page-cache.ts). */
export interface CachePagesTable {
  account: string;
  query_key: string;
  sort_order: 'asc' | 'desc';
  page: number;
  total_found: number;
  /** The result page as JSON. */
  body: string;
  fetched_at: number;
  expires_at: number;
}

/** Every record of a cached page, by account and trx_id. */
export interface CacheRecordsTable {
  account: string;
  trx_id: string;
  /** The CDR as JSON. */
  body: string;
  fetched_at: number;
  expires_at: number;
}

/** Server-side sessions with the sealed API secret (lib/store/vault.ts). */
export interface SessionsTable {
  sid: string;
  api_key: string;
  enterprise_id: string | null;
  sealed_secret: string;
  created_at: number;
  expires_at: number;
}

/** Export jobs; the whole job as JSON in `data`, the columns it is searched by beside it. */
export interface ExportJobsTable {
  id: string;
  account: string;
  state: string;
  created_at: number;
  expires_at: number | null;
  data: string;
}

/** The records an export job fetched, de-duplicated by trx_id, in arrival order (id). */
export interface ExportRowsTable {
  id: Generated<number>;
  job_id: string;
  trx_id: string;
  /** The id of the job's window that read it. */
  win: number;
  body: string;
}

/** A finished export file: present only once every chunk is written (lib/store/export-files.ts). */
export interface ExportFilesTable {
  job_id: string;
  bytes: number;
  chunks: number;
  created_at: number;
}

/** The bytes of export files, in numbered chunks. */
export interface ExportFileChunksTable {
  job_id: string;
  seq: number;
  data: Buffer;
}

/** Who works on a piece of background work, until when (lib/store/leases.ts). */
export interface LeasesTable {
  resource: string;
  holder: string;
  expires_at: number;
}

/** Requests waiting in each instance, for fairness across instances (lib/store/postgres-governor.ts). */
export interface GovernorWaitersTable {
  instance: string;
  seq: number;
  account: string;
  cls: CallClass;
  rank: number;
  /** When the account last had a call sent; a very small number for never. */
  last_served: number;
  since: number;
  seen_at: number;
}

/** Failed sign-ins per subject, a keyed hash of an API key or a client address (lib/store/sign-in-attempts.ts). */
export interface SignInAttemptsTable {
  subject: string;
  /** Failures of the subject's current streak. */
  failures: number;
  last_failure_at: number;
}

export interface Database {
  upstream_calls: UpstreamCallsTable;
  upstream_blocks: UpstreamBlocksTable;
  cache_pages: CachePagesTable;
  cache_records: CacheRecordsTable;
  sessions: SessionsTable;
  export_jobs: ExportJobsTable;
  export_rows: ExportRowsTable;
  export_files: ExportFilesTable;
  export_file_chunks: ExportFileChunksTable;
  leases: LeasesTable;
  governor_waiters: GovernorWaitersTable;
  sign_in_attempts: SignInAttemptsTable;
}

export type { SqlDialect } from './migrations/column-types';
