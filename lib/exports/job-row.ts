import type { Words } from '../i18n/message';
import 'server-only';
/**
 * An export job as the store keeps it (lib/exports/job-store.ts): its frozen query, its windows and
 * counters, and what a written page found.
 */
import type { CdrFieldKey } from '../cdr/fields';
import type { ExportCountCheck, ExportState } from './api';
import type { StoredQuery } from '../query/stored';

export interface StoredWindow {
  id: number;
  /** Instants (ms), whole seconds, inclusive. */
  from: number;
  to: number;
  /**
   * `split`: replaced by narrower windows (kept for accounting): found too deep for the upstream,
   * or held in part by the local history (lib/exports/local-windows.ts).
   */
  state: 'pending' | 'done' | 'split';
  /** Read from the local history, over these ranges (inclusive ms), instead of the upstream. */
  local?: { ranges: { from: number; to: number }[] };
  totalFound: number | null;
  pagesDone: number;
  pagesTotal: number | null;
  /** Rows the upstream sent for this window, before de-duplication. */
  received: number;
}

export interface ExportJobRecord {
  id: string;
  /** The API key the job belongs to: only its sessions may see it. */
  account: string;
  /** The session that created it (its vault entry renews the upstream token). */
  sid: string;
  enterpriseId: string | null;
  /** The team person who asked for it (lib/team): only they and admins see it. Absent for a personal session's. */
  person?: string;
  /**
   * Written for a role that sees personal data masked: every line of the file through the masking
   * rule (lib/team/masking.ts), and nobody who sees it masked may download one that is not.
   */
  masked?: true;
  state: ExportState;
  createdAt: number;
  updatedAt: number;
  finishedAt: number | null;
  /** When the finished job and its file are deleted. */
  expiresAt: number | null;
  /** The query the job reads, frozen, in the query's stored form (lib/query/stored.ts). */
  query: StoredQuery;
  columns: CdrFieldKey[];
  /** The file is written for Excel (lib/csv/csv-format.ts); absent in jobs made before the option. */
  excel?: boolean;
  /**
   * What a stored row of the job holds (lib/exports/file-writer.ts): `csv-line`, the record's line
   * of the file, written as it is read; absent, the JSON of its columns, made into the file at the
   * end (jobs an earlier version made).
   */
  rowFormat?: 'csv-line';
  fileName: string;
  /** The upstream page size the job pages with (fixed at creation: page numbers depend on it). */
  pageSize: number;
  /** In reading order (the query's sort order); split windows stay, marked `split`. */
  windows: StoredWindow[];
  nextWindowId: number;
  waitingUntil: number | null;
  /**
   * What a wait with a time waits for. `quota`: the time was the governor's guess from the ledger
   * and the limits then, so the runner asks again rather than trusting it (the limits may have been
   * raised, a restart may have forgotten calls that never went). Absent: a time to keep (the
   * upstream's Retry-After, a failure's backoff), or a job stored before this field.
   */
  waitingFor?: 'quota';
  /** Words by key (a job stored before them holds English text, shown as it is). */
  message: Words | null;
  warnings: Words[];
  callsSpent: number;
  pagesCached: number;
  /** Records read from the local history (no call); absent in jobs stored before it existed. */
  localRecords?: number;
  /** Distinct records stored. */
  recordsFetched: number;
  /** Records received again (any cause) and stored once. */
  duplicates: number;
  /** Of those, records two different windows both returned. */
  overlapDuplicates: number;
  /** Consecutive failed attempts at the current page (for the backoff). */
  failures: number;
  /**
   * Times the current page came back not whole (short of its count, a record twice) and was asked
   * again (keep-upstream-page.ts); absent: none.
   */
  rereads?: number;
  /**
   * Which answer of the upstream was last asked again (an id given to each page read): a try of
   * keeping that answer again (the store's reply to the first was lost) does not count its call
   * twice. Absent: none.
   */
  rereadOf?: string;
  /** The upstream refused the stored credentials then: only a session signed in later can help. */
  signInNeededSince: number | null;
  countCheck: ExportCountCheck | null;
  fileBytes: number | null;
}

export interface StoredRow {
  trxId: string;
  /** When the platform received it (epoch ms), null when that cannot be read: where its duplicates are looked for. */
  receivedMs: number | null;
  /** The record as the job's rows hold it (ExportJobRecord.rowFormat). */
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
