/**
 * The reconciliation API as the browser (and any script) sees it: POST /api/reconciliations, POST
 * /api/reconciliations/<id>/start, GET /api/reconciliations/<id>[/rows|/file], DELETE. Browser-safe:
 * types and the few constants both sides read.
 */
import type { Zone } from '../time/zones';

/** What the list holds, one value a row: the name is the upstream parameter it is matched by (`trx_id`: the record's field). */
export const RECONCILE_KINDS = ['trx_id', 'client-reference', 'da'] as const;
export type ReconcileKind = (typeof RECONCILE_KINDS)[number];

/** A row's answer. */
export const OUTCOMES = ['matched', 'not_found', 'several', 'invalid'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/**
 * `planned`: made, its plan shown, no call spent (POST /start runs it); `queued`, `running`, `waiting`:
 * the background job has work left; `done`: every row answered; `failed`: the upstream or the store
 * stopped it (what was answered stays).
 */
export const RECONCILE_STATES = ['planned', 'queued', 'running', 'waiting', 'done', 'failed'] as const;
export type ReconcileState = (typeof RECONCILE_STATES)[number];

export function isActiveReconcileState(state: ReconcileState): boolean {
  return state === 'queued' || state === 'running' || state === 'waiting';
}

/** Why a row cannot be answered (its words: messages/<locale>/reconcile.json `problem.<code>`). */
export const ROW_PROBLEMS = [
  'empty',
  'trx-id-characters',
  'trx-id-length',
  'not-a-number',
  'not-a-reference',
  'not-a-time',
  'not-a-cost',
  'time-out-of-reach',
] as const;
export type RowProblemCode = (typeof ROW_PROBLEMS)[number];

/** A row's problem as kept: its code and what its words need (the cell, a length). */
export interface RowProblem {
  code: RowProblemCode;
  values?: Record<string, string | number>;
}

/** Windows a plan lists, at most. */
export const PLAN_WINDOWS_SHOWN = 50;

/** Rows a list may hold. */
export const MAX_RECONCILE_ROWS = 100_000;

/** What goes upstream for one window of time (31 days and 1000 pages at most). */
export interface PlannedWindow {
  /** Wall clocks in the reconciliation's zone. */
  dateFrom: string;
  dateTo: string;
  /**
   * `window`: every record of the window read, at the upstream's page size; `filter`: one
   * filtered query per reference or number; `lookup`: one lookup per `trx_id`.
   */
  strategy: 'window' | 'filter' | 'lookup';
  /** Rows of the list whose answer this window holds. */
  rows: number;
  /** Records in the window; null when not known before its first page. */
  records: number | null;
  /** `exact`: from the page cache or the local history; `estimate`: from the local history's typical day. */
  recordsKnown: 'exact' | 'estimate' | 'unknown';
  calls: number;
}

/** What a reconciliation costs before any call (POST's answer, and kept with it). */
export interface ReconcilePlan {
  /** Rows of the upload (valid and invalid). */
  rows: number;
  invalid: number;
  /** Rows the local history answered: free, already answered. */
  local: number;
  /** Rows left for the upstream. */
  upstream: number;
  /** Upstream calls the plan expects. */
  calls: number;
  /** `exact` when every window's size is known; else the calls are an estimate or a lower bound. */
  callsKnown: 'exact' | 'estimate' | 'at-least';
  /** The calls never exceed this (a window of unknown size: its first page, then the cheaper way). */
  callsAtMost: number;
  /** One lookup per row left: what answering the list one row at a time would cost. */
  callsOneByOne: number;
  /** The first windows of the plan (PLAN_WINDOWS_SHOWN at most: a sparse list of a year can make thousands). */
  windows: PlannedWindow[];
  /** Windows of the plan beyond those listed. */
  windowsNotShown: number;
  /** When the calls can be done at the account's background rate (ISO); null when they never can at these limits. */
  eta: string | null;
  durationMs: number | null;
  /** Background calls an hour and a day left to this account now, and those kept for people. */
  perHour: number;
  perDay: number;
  reserve: number;
  /** Records an upstream page holds for this reconciliation. */
  pageSize: number;
}

export interface VarianceFigure {
  expected: number;
  actual: number;
  /** actual − expected. */
  difference: number;
  /** difference / expected × 100; null when nothing was expected. */
  percent: number | null;
}

/** Cost is money: decimal strings with 8 decimals, as the upstream writes prices. */
export interface CostVariance {
  currency: string;
  expected: string;
  actual: string;
  difference: string;
  percent: number | null;
}

export interface DayVariance {
  /** `YYYY-MM-DD` in the reconciliation's zone (the day of the rows' send times). */
  day: string;
  count: VarianceFigure;
  cost: CostVariance | null;
}

export interface ReconcileSummary {
  outcomes: Record<Outcome, number>;
  /** Rows not answered yet (a reconciliation still running). */
  pending: number;
  /** Rows repeating an earlier row's value (each answered; their records counted once below). */
  repeated: number;
  /** Records found (matched and `several` rows), each once, by status. */
  byStatus: Record<string, number>;
  records: number;
  delivered: number;
  /** delivered / records; null without records. */
  deliveryRate: number | null;
  parts: number;
  cost: { currency: string; total: string; records: number }[];
  /** Against what the upload said to expect (a count, a cost, a cost column), when it did. */
  variance: {
    count: VarianceFigure | null;
    cost: CostVariance | null;
    byDay: DayVariance[];
  };
}

export interface ReconcileProgress {
  /** Rows with their final answer. */
  answered: number;
  rows: number;
  callsSpent: number;
  /** Pages of the dashboard's cache read instead of a call. */
  pagesCached: number;
  /** Upstream queries and lookups done and planned (a window is one until its size is known). */
  tasksDone: number;
  tasksTotal: number;
  /** Calls still needed, at least (a window not opened yet counts its first page; pages the cache holds count too). */
  callsLeft: number;
  /** While it runs: when those calls can be done at the account's background rate (ISO); null when never or over. */
  eta: string | null;
}

/** Something said about the run, never hidden: a window split, a count that moved, a strategy changed. */
export interface ReconcileNote {
  code:
    | 'window-split'
    | 'window-too-deep'
    | 'count-changed'
    | 'page-kept-as-sent'
    | 'strategy-changed'
    | 'range-frozen'
    | 'empty-page';
  /** Wall clocks of the window in the reconciliation's zone. */
  dateFrom?: string;
  dateTo?: string;
  /** Figures the words need (records, pages, windows, calls). */
  figures?: Record<string, number>;
}

/** Why a reconciliation waits or failed, as a code and what the words need. */
export interface ReconcileMessage {
  code:
    | 'waiting-quota'
    | 'waiting-upstream'
    | 'waiting-reserve'
    | 'waiting-sign-in'
    | 'secret-unreadable'
    | 'credentials-refused'
    | 'retrying'
    | 'server-problem'
    | 'failed-upstream'
    | 'refused-upstream'
    | 'failed-server';
  /** When it tries again (ISO). */
  until?: string;
  attempt?: number;
  attempts?: number;
  /** The upstream's status or error kind. */
  status?: string;
}

export interface Reconciliation {
  id: string;
  state: ReconcileState;
  kind: ReconcileKind;
  tz: Zone;
  /** The upload's file name (a paste or a JSON list: null). */
  source: string | null;
  /** The column read, as the upload named it (or `value`). */
  column: string;
  /** The range of rows without a send time (wall clocks in `tz`); null when every row has one. */
  range: { dateFrom: string; dateTo: string } | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** When it is forgotten (ISO): a retention after it finished, or after it was made and not started. */
  expiresAt: string | null;
  plan: ReconcilePlan;
  progress: ReconcileProgress;
  summary: ReconcileSummary;
  message: ReconcileMessage | null;
  notes: ReconcileNote[];
  /** The name the answered file downloads as. */
  fileName: string;
  _links: { self: { href: string }; rows: { href: string }; file: { href: string }; start?: { href: string } };
}

/** A record as a row's answer gives it: what a support person checks, times in the reconciliation's zone. */
export interface AnswerRecord {
  trx_id: string;
  date_received: string;
  delivery_status: string;
  dlr_error_code: string;
  dlr_reason: string;
  network_code: string;
  network_name: string;
  date_submitted_to_mno: string;
  date_delivered: string;
  /** From submission to delivery, ms; null when either is missing. */
  latency_ms: number | null;
  how_many_message_parts: number | null;
  price: string;
  price_currency: string;
  to_address: string;
  ref: string;
}

export interface ReconcileRow {
  /** The row's place in the upload (1 is the first data row). */
  row: number;
  /** The uploaded cells, as the upload's columns name them. */
  input: Record<string, string>;
  /** The value read (in the form the records write it); "" for a row that has none. */
  value: string;
  /** The row's send time (ISO), when it had one. */
  sentAt: string | null;
  outcome: Outcome | 'pending';
  /** Why an `invalid` row is invalid, in the words of the request's language. */
  problem: { code: RowProblemCode; detail: string } | null;
  /** `matched`: one record; `several`: all of them. */
  records: AnswerRecord[];
}

export interface ReconcileRowsPage {
  rows: ReconcileRow[];
  page: number;
  pageSize: number;
  /** Rows that pass the filter. */
  total: number;
  outcome: Outcome | 'pending' | null;
  status: string | null;
}

/** POST /api/reconciliations answers this (201). */
export interface ReconcileCreated {
  id: string;
  state: ReconcileState;
  plan: ReconcilePlan;
  _links: Reconciliation['_links'];
}
