/**
 * The governor as the browser (and any script) sees it: GET /api/quota's windows, and the quota a
 * search's answer and its plan carry. Browser-safe: types only.
 */
export type WindowName = 'minute' | 'hour' | 'day';

export interface QuotaWindow {
  name: WindowName;
  limit: number;
  used: number;
  remaining: number;
  /** When the oldest call in the window leaves it (ISO), or null when the window is empty. */
  freesAt: string | null;
}

/** One of the deployment's shared windows (an upstream that counts per client IP). */
export interface SharedQuotaWindow extends QuotaWindow {
  /** Accounts that have called in this window. */
  accounts: number;
}

/** What the signed-in account has left against the upstream's limits. */
export interface QuotaSnapshot {
  /** The account's own windows. */
  windows: QuotaWindow[];
  /**
   * The deployment's shared windows, when the upstream counts per client IP too (null otherwise):
   * every account's calls count in them.
   */
  shared: SharedQuotaWindow[] | null;
  /** Upstream calls of this account being made right now (0 or 1). */
  inFlight: number;
  /** Requests of this account waiting for their turn. */
  queued: { interactive: number; background: number };
  /** When the next interactive call can go (ISO); now or in the past means "now"; null: never at these limits. */
  nextCallAt: string | null;
  /** Set when the upstream itself answered 429 and asked us to wait. */
  blockedUntil: string | null;
  /** Calls of each hour and day kept for people: background work never takes them. */
  reserve: number;
  /** The rule that holds the next call back right now, if any. */
  limitedBy: WindowName | 'in-flight' | 'upstream' | 'tokens' | null;
  /** Whose budget it is: this account's own, or the dashboard's shared one. */
  limitScope: 'account' | 'deployment' | null;
  /** What holds the next call back, said for a person ("Your account's 10 calls this hour are used…"). */
  limitMessage?: string;
}
