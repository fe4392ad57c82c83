/**
 * The local history as the browser (and any script) sees it: GET/PUT/DELETE /api/history.
 * Browser-safe: types only.
 */

/** A UTC day of the copy: copied, being copied, waiting its turn, not settled yet, or not asked for yet. */
export interface HistoryDay {
  /** YYYY-MM-DD, a UTC day. */
  day: string;
  state: 'complete' | 'syncing' | 'waiting' | 'unsettled' | 'pending';
  records: number;
}

export interface HistoryState {
  enabled: boolean;
  /**
   * off: not wanted; syncing: copying now; waiting: wanted, but no call can go now (quota, or no
   * session to renew the token with: `message` says which); complete: every settled day wanted is
   * copied; paused: stopped after some of it was made, by a person (Pause) or because the upstream
   * refused the copy's query (`message` says so); Start goes on from there.
   */
  state: 'off' | 'syncing' | 'waiting' | 'complete' | 'paused';
  message: string | null;
  /** The first day wanted (YYYY-MM-DD). */
  since: string;
  keepSyncingSignedOut: boolean;
  /** How far back `since` may go (HISTORY_MAX_DAYS). */
  maxDays: number;
  /**
   * The days `since` may be, from HISTORY_MAX_DAYS back to today: UTC days, by the server's clock
   * (lib/history/retention.ts), so the browser never works them out from its own.
   */
  sinceBounds: { min: string; max: string };
  /**
   * Records kept: those of the copied days, and those of search results read whole (each of their
   * pages stored), which may lie on days not copied.
   */
  records: number;
  /**
   * Upstream calls the copy made today (UTC). Counted by API key, as the upstream's quota is: a key
   * copying for several enterprises counts the calls of all its copies.
   */
  callsToday: number;
  /**
   * Calls still needed; null until the upstream has told the size of one day (a day's first page
   * does), since a day's calls are not guessed.
   */
  callsLeft: number | null;
  /** Calls a typical day takes (the complete days' average, else a day being read); null as callsLeft. */
  callsPerDay: number | null;
  /** Records one of the sync's calls reads at most (pageSize.size): a day takes one call per this many. */
  recordsPerCall: number;
  /**
   * The page size the sync (and exports) read with, and how it was decided: pinned by
   * UPSTREAM_PAGE_SIZE (`configured`), found from the upstream's answer to a larger size
   * (`probed`), fallen back after the upstream refused a larger one (`fallback`, with `refused`),
   * or not asked yet (`unprobed`: the sync's next page asks with the probe's size).
   */
  pageSize: {
    size: number;
    source: 'configured' | 'probed' | 'fallback' | 'unprobed';
    /** When the upstream's answer decided it (ISO), for probed and fallback. */
    decidedAt: string | null;
    refused: { asked: number; status: number } | null;
  };
  /**
   * Messages a day the sync keeps up with at the account's limits: the calls it may make in a day
   * (its share of each window, never the calls kept for people) times the page size.
   */
  keepsUpWith: number;
  /** When the copy should be complete at the current limits (ISO), or null when unknown (as callsLeft) or off. */
  completeAt: string | null;
  /** From `since` to today, newest first. */
  days: HistoryDay[];
}

/** PUT /api/history: any of these. */
export interface HistorySettingsInput {
  enabled?: boolean;
  since?: string;
  keepSyncingSignedOut?: boolean;
}
