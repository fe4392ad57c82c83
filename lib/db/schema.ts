import 'server-only';
/**
 * The tables of the durable store, as Kysely sees them: one interface for both dialects. Times are
 * epoch milliseconds (bigint in PostgreSQL, parsed back to numbers: see postgres-pool.ts); JSON is
 * kept as text, exactly as the stores wrote it before Kysely. The tables themselves are created by
 * the migrations in ./migrations, which must agree with these types.
 */
import type { Generated } from 'kysely';
import type { RecordColumns } from '../cdr/record-columns';

/** The governor's ledger: every upstream call, written before it is sent (lib/governor/ledger-store.ts). */
export interface UpstreamCallsTable {
  id: Generated<number>;
  account: string;
  at: number;
  kind: string;
  /** Whose call it was (lib/governor/classes.ts). */
  /** The governor's class of the call (lib/governor/classes.ts), as its name. */
  class: Generated<string>;
  outcome: string | null;
  /** The team person the call was made for (lib/team); null for a personal session or background work. */
  person: string | null;
}

/** Accounts the upstream answered 429 for, and until when. */
export interface UpstreamBlocksTable {
  account: string;
  until: number;
}

/** Upstream result pages, by account and normalised query (lib/cache/page-cache-store.ts). */
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
  /** The CDR as JSON when it was fetched alone (a detail call); '' when its page holds it. */
  body: string;
  /** The cached page that holds the record (cache_pages' key); null when `body` holds it. */
  page_query_key: string | null;
  page_sort: 'asc' | 'desc' | null;
  page_no: number | null;
  fetched_at: number;
  expires_at: number;
}

/** Server-side sessions with the sealed API secret (lib/auth/vault.ts). */
export interface SessionsTable {
  sid: string;
  api_key: string;
  enterprise_id: string | null;
  /** '' for a team person's session: the team account's secret is read from team_accounts. */
  sealed_secret: string;
  created_at: number;
  expires_at: number;
  /** Team mode (migration 0024-team): the person, the role last read from the provider and when. */
  person: string | null;
  role: string | null;
  role_checked_at: number | null;
  /** The identity provider's tokens (refresh, access, expiry), sealed, for reading the role again. */
  idp_tokens: string | null;
  /** The team account (team_accounts.id) the person works on. */
  team_account: string | null;
}

/** Sessions ended all at once for their API key, and why (migration 0022-ended-sessions). */
export interface EndedSessionsTable {
  sid: string;
  reason: string;
  expires_at: number;
}

/** Export jobs; the whole job as JSON in `data`, the columns it is searched by beside it. */
export interface ExportJobsTable {
  id: string;
  /** The API key the job calls the upstream as. */
  account: string;
  /** Whose job it is: the account's key, API key and enterprise (lib/history/scope.ts); null only before 0018. */
  owner: string | null;
  state: string;
  created_at: number;
  expires_at: number | null;
  data: string;
}

/** The records an export job fetched, de-duplicated by trx_id, in arrival order (id). */
export interface ExportRowsTable {
  id: Generated<number>;
  job_id: string;
  /** When the platform received it (epoch ms); null when that could not be read, or for rows stored before migration 0023. */
  received_ms: number | null;
  trx_id: string;
  /** The id of the job's window that read it. */
  win: number;
  body: string;
}

/** A finished export file: present only once every chunk is written (lib/exports/file-store.ts). */
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

/** Who works on a piece of background work, until when (lib/background/lease-store.ts). */
export interface LeasesTable {
  resource: string;
  holder: string;
  expires_at: number;
}

/** Requests waiting in each instance, for fairness across instances (lib/governor/postgres-backend.ts). */
export interface GovernorWaitersTable {
  instance: string;
  seq: number;
  account: string;
  /** The governor's class of the call (lib/governor/classes.ts), as its name. */
  cls: string;
  rank: number;
  /** When the account last had a call sent; a very small number for never. */
  last_served: number;
  since: number;
  seen_at: number;
}

/** The local history's per-scope settings (lib/history/store/history-store.ts). */
export interface HistorySettingsTable {
  scope: string;
  api_key: string;
  enterprise_id: string | null;
  enabled: number;
  /** The first day wanted, YYYY-MM-DD (UTC). */
  since_day: string;
  keep_signed_out: number;
  /** Kept only while `keep_signed_out`: the sealed API secret the copy renews tokens with. */
  sealed_secret: string | null;
  created_at: number;
  updated_at: number;
}

/**
 * Each UTC day of a scope's copy: its state and what has been read of it. `building`: every page is
 * read and staged, its records are going into the history's data (lib/history/store/history-store.ts
 * buildDay); `complete` once they are all there.
 */
export interface HistoryDaysTable {
  scope: string;
  day: string;
  state: 'syncing' | 'building' | 'complete';
  /** The day's windows and their pages read, as JSON (lib/history/sync-day-progress.ts). */
  progress: string;
  records: number;
  /** Upstream calls the day has cost so far. */
  calls: number;
  updated_at: number;
  completed_at: number | null;
}

/** A scope's number in the local history's data (migration 0040-history-compact): never reused. */
export interface HistoryScopesTable {
  scope_no: Generated<number>;
  scope: string;
}

/**
 * One record of a scope's copy, with the columns filters and sorts read (lib/cdr/record-columns.ts),
 * and where its JSON lies (a block of history_body_blocks, its place in it).
 */
export interface HistoryRecordsTable extends Omit<RecordColumns, 'day' | 'search_text'> {
  id: Generated<number>;
  scope_no: number;
  /** PostgreSQL only, for its trigram index; SQLite keeps the text in its text index alone. */
  search_text?: string;
  body_block: number;
  body_pos: number;
}

/** Records' JSON, compressed a block at a time (lib/db/migrations/body-blocks.ts): one scope, one UTC day each. */
export interface HistoryBodyBlocksTable {
  block_no: Generated<number>;
  scope_no: number;
  /** The UTC day (YYYY-MM-DD) of its records. */
  day: string;
  data: Buffer;
}

/** SQLite: the text of records stored since its text index last caught up (lib/history/store/text-sqlite-writes.ts). */
export interface HistoryTextPendingTable {
  /** The record's id. */
  id: number;
  scope_no: number;
  /** YYYYMM: the month table it goes into. */
  month: number;
  search_text: string;
}

/** SQLite: the text index's tables, one per scope and UTC month (lib/db/migrations/history-text-tables.ts). */
export interface HistoryTextMonthsTable {
  scope_no: number;
  month: number;
  /** Raised whenever the month's table changes: a lookup kept from before it is not used again. */
  version: Generated<number>;
}

/**
 * An upstream page of a day being copied, as it came (its records, JSON), kept from the moment it
 * is read until the day's records are in the history's data: storing it costs a row, so the copy
 * makes its next call at once, and the day is built from its pages in one go.
 */
export interface HistoryStagedPagesTable {
  scope: string;
  day: string;
  /** The page's place in the day's reading order (1, 2, …). */
  seq: number;
  records: string;
}

/** A complete day's records as columns (lib/history/store/day-pack.ts). */
export interface HistoryDayPacksTable {
  scope: string;
  day: string;
  /** New at every build: a copy held in memory is current while this is unchanged. */
  version: string;
  records: number;
  built_at: number;
  pack: Buffer;
}

/** A complete result of the page cache, its records in history_records. */
export interface HistoryResultsTable {
  scope: string;
  result_key: string;
  /** The upstream filters of the result, JSON. */
  filters: string;
  from_ms: number;
  to_ms: number;
  records: number;
  created_at: number;
}

/** What the rollups sum per combination of values (lib/history/store/rollups.ts keeps them with the records). */
export interface RollupSums {
  status: string;
  network_code: string;
  network_name: string;
  from_address: string;
  api_key: string;
  api_key_name: string;
  enterprise_id: string;
  delivery_method: string;
  dlr_error_code: string;
  /** Message parts; 0 when the record had none. */
  parts: number;
  currency: string;
  records: number;
  parts_sum: number;
  /** Sum of the prices in 1e-8 of the currency (exact). */
  price_units: number;
  /** Records with a price. */
  priced: number;
  /** The delivery latencies (ms) of its records that have one, as 32-bit big-endian integers, in no order. */
  latencies: Buffer;
}

/** A scope's records per UTC hour and combination of values. */
export interface HistoryRollupsHourlyTable extends RollupSums {
  scope: string;
  /** The UTC hour's first instant (ms). */
  hour_ms: number;
}

/** A scope's records per day of a zone and combination of values. */
export interface HistoryRollupsDailyTable extends RollupSums {
  scope: string;
  zone: 'UTC' | 'JST';
  /** Days since 1970-01-01 in that zone. */
  day: number;
}

/** Failed sign-ins per subject, a keyed hash of an API key or a client address (lib/auth/sign-in-attempt-store.ts). */
export interface SignInKnownAddressesTable {
  /** A keyed hash of an API key and a client address it signed in from. */
  pair: string;
  /** Remembered until (ms). */
  until: number;
}

export interface SignInAttemptsTable {
  subject: string;
  /** Failures of the subject's current streak. */
  failures: number;
  last_failure_at: number;
}

/** A scope's records per day of a zone, one breakdown (facet) at a time (history-rollups.ts FACETS). */
export interface HistoryRollupsFacetsTable {
  scope: string;
  zone: 'UTC' | 'JST';
  day: number;
  facet: 'day' | 'network' | 'sender' | 'api_key' | 'dlr';
  key1: string;
  key2: string;
  status: string;
  currency: string;
  records: number;
  parts_sum: number;
  price_units: number;
  priced: number;
  latencies: Buffer;
}

/** Accounts the server holds for the team (lib/team/team-accounts.ts). */
export interface TeamAccountsTable {
  id: string;
  label: string;
  api_key: string;
  enterprise_id: string | null;
  sealed_secret: string;
  source: 'env' | 'admin';
  env_secret_hash: string | null;
  created_at: number;
  updated_at: number;
}

/** People who signed in through the identity provider (lib/team/people-store.ts). */
export interface TeamPeopleTable {
  /** The provider's subject (`sub`). */
  id: string;
  name: string;
  email: string | null;
  /** The role last read from the provider. */
  role: string | null;
  first_seen_at: number;
  last_seen_at: number;
  suspended_at: number | null;
  suspended_by: string | null;
  /** The language the person picked (lib/i18n/locales.ts), first for them everywhere; null until they pick. */
  locale: string | null;
}

/** The audit log, append-only (lib/team/audit-store.ts). */
export interface TeamAuditTable {
  id: Generated<number>;
  at: number;
  actor: string;
  actor_name: string;
  role: string;
  action: string;
  account: string | null;
  trx_id: string | null;
  reason: string | null;
  query: string | null;
  number_hash: string | null;
  detail: string | null;
}

/** The page size the upstream accepts for background reads, once found (lib/history/sync-page-size.ts): one row. */
export interface UpstreamPageSizeTable {
  /** Always 1. */
  id: number;
  size: number;
  source: 'probed' | 'fallback';
  /** The size asked for when it was decided. */
  asked: number;
  /** The upstream's status when it refused `asked` (fallback). */
  status: number | null;
  decided_at: number;
}

/** A reconciliation: the whole job as JSON in `data`, the columns it is found by beside it (lib/reconcile/job-store.ts). */
export interface ReconcileJobsTable {
  id: string;
  /** The API key it calls the upstream as. */
  account: string;
  /** Whose it is: the account's key, API key and enterprise (lib/history/scope.ts). */
  owner: string;
  state: string;
  created_at: number;
  expires_at: number | null;
  data: string;
}

/** One row of a reconciliation's list and its answer (lib/reconcile/job-store.ts). */
export interface ReconcileRowsTable {
  job_id: string;
  /** From 1, the row's place in the upload. */
  row_no: number;
  /** The value as the records write it; null for an invalid row. */
  value: string | null;
  /** Received times that answer the row, inclusive (ms); null for an invalid row. */
  span_from: number | null;
  span_to: number | null;
  /** The send time the row gave (ms). */
  sent_at: number | null;
  /** The cost the row expected (decimal), from a cost column. */
  cost: string | null;
  /** The uploaded cells, JSON. */
  cells: string;
  /** pending, matched, not_found, several, invalid. */
  outcome: string;
  /** Records found so far (a reference or number may find several). */
  found: number;
  /** The status of a matched row's record (the rows view filters by it). */
  status: string | null;
  /** Why an invalid row is, JSON. */
  problem: string | null;
  /** The records found, JSON. */
  matches: string | null;
}

/** The upstream queries and lookups of a reconciliation (lib/reconcile/job-store.ts). */
export interface ReconcileTasksTable {
  job_id: string;
  /** In the order they run: windows, then filtered queries, then lookups. */
  id: number;
  kind: string;
  /** A filtered query's parameter and value; a lookup's trx_id in `value`. */
  param: string | null;
  value: string | null;
  from_ms: number;
  to_ms: number;
  state: string;
  total_found: number | null;
  pages_done: number;
  pages_total: number | null;
}

export interface Database {
  upstream_calls: UpstreamCallsTable;
  upstream_blocks: UpstreamBlocksTable;
  cache_pages: CachePagesTable;
  cache_records: CacheRecordsTable;
  sessions: SessionsTable;
  ended_sessions: EndedSessionsTable;
  export_jobs: ExportJobsTable;
  export_rows: ExportRowsTable;
  export_files: ExportFilesTable;
  export_file_chunks: ExportFileChunksTable;
  leases: LeasesTable;
  governor_waiters: GovernorWaitersTable;
  history_settings: HistorySettingsTable;
  history_days: HistoryDaysTable;
  history_scopes: HistoryScopesTable;
  history_records: HistoryRecordsTable;
  history_body_blocks: HistoryBodyBlocksTable;
  history_text_pending: HistoryTextPendingTable;
  history_text_months: HistoryTextMonthsTable;
  history_results: HistoryResultsTable;
  history_rollups_hourly: HistoryRollupsHourlyTable;
  history_rollups_daily: HistoryRollupsDailyTable;
  sign_in_attempts: SignInAttemptsTable;
  sign_in_known_addresses: SignInKnownAddressesTable;
  history_rollups_facets: HistoryRollupsFacetsTable;
  history_day_packs: HistoryDayPacksTable;
  history_staged_pages: HistoryStagedPagesTable;
  team_accounts: TeamAccountsTable;
  team_people: TeamPeopleTable;
  team_audit: TeamAuditTable;
  upstream_page_size: UpstreamPageSizeTable;
  reconcile_jobs: ReconcileJobsTable;
  reconcile_rows: ReconcileRowsTable;
  reconcile_tasks: ReconcileTasksTable;
}

export type { SqlDialect } from './migrations/column-types';
