import 'server-only';
/**
 * What the local history holds completely for a scope — its complete days and the complete results
 * of the page cache — as facts the planner (lib/search/planner.ts) cuts a query by. Read from the
 * store and kept a few seconds, so a cached page does not pay two queries for it; a write in this
 * process forgets the scope's copy at once.
 */
import type { HistoryResult, HistoryStore } from './store/history-store';

/** How long what a scope holds is reused (another instance's new day shows after this). */
const TTL_MS = 5_000;

interface Held {
  days: string[];
  results: HistoryResult[];
  at: number;
}

export class HistoryIndex {
  private readonly byScope = new Map<string, Held>();

  constructor(
    private readonly store: HistoryStore,
    private readonly now: () => number = Date.now,
  ) {}

  /** Forgets what is known of the scope (a day completed, a result stored, the copy deleted). */
  invalidate(scope: string): void {
    this.byScope.delete(scope);
  }

  private async load(scope: string): Promise<Held> {
    const known = this.byScope.get(scope);
    const now = this.now();
    if (known && now - known.at < TTL_MS) return known;
    const [days, results] = await Promise.all([
      this.store.completeDays(scope, '0000-01-01', '9999-12-31'),
      this.store.results(scope),
    ]);
    const fresh = { days, results, at: now };
    this.byScope.set(scope, fresh);
    return fresh;
  }

  /** Whether the scope holds anything at all (most accounts: nothing, and then nothing is asked). */
  async holdsAnything(scope: string): Promise<boolean> {
    const h = await this.load(scope);
    return h.days.length > 0 || h.results.length > 0;
  }

  /** The scope's complete days and complete results (see HistoryStore.completeDays and .results). */
  async held(scope: string): Promise<{ days: readonly string[]; results: readonly HistoryResult[] }> {
    return this.load(scope);
  }

  /** Whether the scope holds a record of enterprise `enterpriseId` received between `from` and `to` (ms). */
  holdsEnterprise(scope: string, enterpriseId: string, from: number, to: number): Promise<boolean> {
    return this.store.holdsEnterprise(scope, enterpriseId, from, to);
  }

  /** The complete days of the scope (Insights reads its figures from them). */
  async completeDays(scope: string): Promise<readonly string[]> {
    return (await this.load(scope)).days;
  }
}
