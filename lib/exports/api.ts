/**
 * The export API as the browser (and any script) sees it: POST/GET /api/exports, GET/DELETE
 * /api/exports/<id>, GET /api/exports/<id>/file. Browser-safe: types only.
 */
import type { Words } from '../i18n/message';
import type { CdrFieldKey } from '../cdr/fields';
import type { QueryBody } from '../query/query';

export const EXPORT_STATES = ['queued', 'running', 'waiting', 'done', 'failed', 'cancelled'] as const;
export type ExportState = (typeof EXPORT_STATES)[number];

/** States in which the job still has work to do (the header badge counts these). */
export const ACTIVE_EXPORT_STATES: readonly ExportState[] = ['queued', 'running', 'waiting'];

export function isActiveExportState(state: ExportState): boolean {
  return (ACTIVE_EXPORT_STATES as readonly string[]).includes(state);
}

/**
 * The query an export reads, as the job froze it (its date-to the frozen end): the query's body form
 * (lib/query/query.ts `QueryBody`), the same flat parameters as the dashboard's URL and POST body, so
 * a script can send it back as it came.
 */
export type ExportQuery = QueryBody;

/** One sub-range the upstream is asked for (31 days and 1000 pages at most each). */
export interface ExportWindowProgress {
  /** Wall-clock in the job's zone. */
  dateFrom: string;
  dateTo: string;
  /** total_found as the upstream reported it; null until the window's first page is read. */
  totalFound: number | null;
  pagesDone: number;
  /** null until totalFound is known. */
  pagesTotal: number | null;
  state: 'pending' | 'running' | 'done';
}

export interface ExportProgress {
  /** Distinct records stored so far (de-duplicated by trx_id). */
  recordsFetched: number;
  /** Sum of total_found of the windows as learned; null while no window's size is known. */
  totalExpected: number | null;
  /** Upstream calls this job spent. */
  callsSpent: number;
  /** Pages taken from the dashboard's page cache (no call). */
  pagesCached: number;
  /** Records read from the local history (no call). */
  recordsFromHistory: number;
  windows: ExportWindowProgress[];
}

/** What the file holds against what the upstream reported, checked when the file is written. */
export interface ExportCountCheck {
  /** Sum of total_found over the windows. */
  expected: number;
  /** Rows in the file. */
  written: number;
  /** Records the upstream sent more than once (window boundaries, pages that shifted). */
  duplicates: number;
  /** written − (expected − records counted in two windows): 0 when everything matches. */
  difference: number;
  ok: boolean;
}

/** When the upstream calls can go, from the account's windows (background priority). */
export interface ExportSchedule {
  /** Calls still to make (a lower bound while some window's size is unknown). */
  calls: number;
  /** Upstream calls left in front of these: other exports of the account, queued earlier. */
  callsAhead: number;
  startsAt: string;
  /** null when the calls can never go (the reserve takes every call of a window). */
  finishAt: string | null;
  durationMs: number | null;
  /** Background calls per minute, hour and day (the limits, less the interactive reserve for hours and days). */
  perMinute: number;
  perHour: number;
  perDay: number;
  /** Calls of each hour and day kept for people. */
  reserve: number;
  /** All the calls can go right now: the export finishes within seconds. */
  fitsNow: boolean;
}

/** POST /api/exports with `dryRun: true`: what the export would cost, before it is made. */
export interface ExportEstimate {
  /** Records the export would hold: exact, approximate (the range still grows) or unknown. */
  records: number | null;
  recordsKnown: 'exact' | 'approximate' | 'unknown';
  /** Upstream calls the export needs (at the upstream's largest page size, minus cached pages). */
  calls: number;
  /** Windows whose size is unknown: each costs at least one call more than counted. */
  windowsUnknown: number;
  pagesCached: number;
  pageSize: number;
  query: ExportQuery;
  windows: { dateFrom: string; dateTo: string; records: number | null; calls: number; pagesCached: number }[];
  schedule: ExportSchedule;
  /** One sentence: "42 calls: about 6 h at 7 calls an hour; 3 calls an hour are kept for …". */
  summary: Words;
  warnings: Words[];
  fileName: string;
  columns: CdrFieldKey[];
}

export interface ExportJob {
  id: string;
  state: ExportState;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
  /** When the file (and the job) will be deleted; null while the job runs. */
  expiresAt: string | null;
  query: ExportQuery;
  /** The date-to the request asked for, when it lay in the future and was frozen to creation time. */
  requestedDateTo: string | null;
  columns: CdrFieldKey[];
  /** The file is written for Excel (`excel` of the request). */
  excel: boolean;
  fileName: string;
  progress: ExportProgress;
  /** Set in state `waiting`: when the job will try again (null: it waits for a sign-in). */
  waitingUntil: string | null;
  /**
   * Why the job waits or failed, in words a person can act on. Words by key inside the dashboard;
   * the API answers them as text in the request's language (lib/exports/said.ts).
   */
  message: Words | null;
  /** Split windows, count differences, totals that moved: said, never hidden. */
  warnings: Words[];
  countCheck: ExportCountCheck | null;
  /** Bytes of the finished file. */
  fileBytes: number | null;
  /** Calls still needed and when they can go; null once the job is over. */
  schedule: ExportSchedule | null;
  _links: { self: { href: string }; file?: { href: string } };
}

export interface ExportList {
  jobs: ExportJob[];
}
