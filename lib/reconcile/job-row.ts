import 'server-only';
/**
 * A reconciliation as the store keeps it (./job-store.ts): the job, each row of its list, and each
 * upstream task (a window read whole, a filtered query, a lookup).
 */
import type { Zone } from '../time/zones';
import type {
  Outcome,
  ReconcileKind,
  ReconcileMessage,
  ReconcileNote,
  ReconcilePlan,
  ReconcileState,
  ReconcileSummary,
  RowProblem,
} from './api';

export interface ReconcileJobRecord {
  id: string;
  /** The API key it calls the upstream as. */
  account: string;
  /** The session that made it (its vault entry renews the upstream token). */
  sid: string;
  enterpriseId: string | null;
  state: ReconcileState;
  kind: ReconcileKind;
  tz: Zone;
  /** The upload's file name; null for a paste or a JSON list. */
  source: string | null;
  /** The upload's column names, in its order. */
  columns: string[];
  valueColumn: number;
  /** The range of rows without a send time (ms, inclusive); null when every row has one. */
  range: { from: number; to: number } | null;
  /** What the upload said to expect in total. */
  expected: { count: number | null; cost: string | null; currency: string | null };
  /** The upstream page size the job reads with (fixed when made: page numbers depend on it). */
  pageSize: number;
  plan: ReconcilePlan;
  /** The id the next task added gets (tasks run in id order). */
  nextTaskId: number;
  /** Kept once it is over (done or failed); while it runs, worked out from its rows. */
  summary: ReconcileSummary | null;
  createdAt: number;
  updatedAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  /** When it is forgotten: a retention after it finished, or after it was made and never started. */
  expiresAt: number | null;
  callsSpent: number;
  pagesCached: number;
  waitingUntil: number | null;
  /** `quota`: the wait's time was the governor's guess; the runner asks again rather than trust it. */
  waitingFor?: 'quota';
  message: ReconcileMessage | null;
  notes: ReconcileNote[];
  /** Failed attempts in a row (the backoff). */
  failures: number;
  /** Times the current page came back not whole and was asked for again. */
  rereads: number;
  /** The answer whose reread was counted last (a retried store write must not count it twice). */
  rereadOf?: string;
  /** A session signed in after this moment is needed (the earlier ones' secret was refused). */
  signInNeededSince: number | null;
}

/** A record as a row's answer keeps it: the fields a person checks, as the upstream wrote them. */
export interface StoredMatch {
  trx_id: string;
  date_received: string;
  delivery_status: string;
  dlr_error_code: string;
  dlr_reason: string;
  network_code: string;
  network_name: string;
  date_submitted_to_mno: string;
  date_delivered: string;
  how_many_message_parts: number | null;
  price: string;
  price_currency: string;
  to_address: string;
  ref: string;
}

export interface StoredRow {
  row: number;
  value: string | null;
  /** Received times that answer the row (ms, inclusive); null for an invalid row. */
  spanFrom: number | null;
  spanTo: number | null;
  sentAt: number | null;
  cost: string | null;
  cells: string[];
  outcome: Outcome | 'pending';
  problem: RowProblem | null;
  matches: StoredMatch[];
}

export type TaskKind = 'window' | 'filter' | 'lookup';
/** `replaced`: read no further, its rows given to other tasks (split deeper, or answered a cheaper way). */
export type TaskState = 'pending' | 'done' | 'replaced';

export interface StoredTask {
  id: number;
  kind: TaskKind;
  /** A filtered query's parameter (`client-reference`, `da`); null otherwise. */
  param: 'client-reference' | 'da' | null;
  /** A filtered query's value, a lookup's trx_id; null for a window. */
  value: string | null;
  /** Instants (ms), whole seconds, inclusive. A lookup's are its row's span (for the notes only). */
  from: number;
  to: number;
  state: TaskState;
  totalFound: number | null;
  pagesDone: number;
  pagesTotal: number | null;
}
