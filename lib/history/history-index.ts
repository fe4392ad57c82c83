import 'server-only';
/**
 * What the local history holds completely for a scope — its complete days and the complete results
 * of the page cache — as intervals of instants a query can be answered from (coverage.ts cuts the
 * query by them). Read from the store and kept a few seconds, so a cached page does not pay two
 * queries for it; a write in this process forgets the scope's copy at once.
 */
import type { HistoryResult, HistoryStore } from './store/history-store';
import { type Interval } from './coverage';
import { DAY_MS } from '../time/units';
import { startOf } from './days';
import type { HistoryScope } from './scope';
import type { WireFilters } from '../query/wire';

/** How long the held intervals of a scope are reused (another instance's new day shows after this). */
const TTL_MS = 5_000;

/** A result can answer a query when every filter of the result is a filter of the query: the query asks for a part of it. */
export function resultServes(result: Pick<HistoryResult, 'filters'>, queryFilters: WireFilters): boolean {
  return Object.entries(result.filters).every(
    ([k, v]) => (queryFilters as Record<string, string | undefined>)[k] === v,
  );
}

interface Held {
  days: string[];
  results: HistoryResult[];
  at: number;
}

export class HistoryIndex {
  private readonly held = new Map<string, Held>();

  constructor(
    private readonly store: HistoryStore,
    private readonly now: () => number = Date.now,
  ) {}

  /** Forgets what is known of the scope (a day completed, a result stored, the copy deleted). */
  invalidate(scope: string): void {
    this.held.delete(scope);
  }

  private async load(scope: string): Promise<Held> {
    const known = this.held.get(scope);
    const now = this.now();
    if (known && now - known.at < TTL_MS) return known;
    const [days, results] = await Promise.all([
      this.store.completeDays(scope, '0000-01-01', '9999-12-31'),
      this.store.results(scope),
    ]);
    const fresh = { days, results, at: now };
    this.held.set(scope, fresh);
    return fresh;
  }

  /** Whether the scope holds anything at all (most accounts: nothing, and then nothing is asked). */
  async holdsAnything(scope: string): Promise<boolean> {
    const h = await this.load(scope);
    return h.days.length > 0 || h.results.length > 0;
  }

  /**
   * Whether what the copy holds can answer for the enterprise a query names. A session signed in
   * for no enterprise copies what its key may read, and the upstream refuses (403) an enterprise the
   * key may not read: when the range's records hold none of it, the copy cannot tell "none sent"
   * from "not yours", and the query is the upstream's (a complete answer of it is kept as a result
   * with that filter, which answers it next time). Records of it in the range say the key may.
   * A query only the copy can answer keeps the copy's answer: no upstream could give another.
   */
  private async mayAnswerEnterprise(
    scope: Pick<HistoryScope, 'key' | 'enterpriseId'>,
    asked: string | undefined,
    from: number,
    to: number,
    localOnly: boolean,
  ): Promise<boolean> {
    if (localOnly || asked === undefined || asked === scope.enterpriseId) return true;
    return this.store.holdsEnterprise(scope.key, asked, from, to);
  }

  /**
   * Intervals of [from, to] the scope holds every record of, for a query with these upstream filters:
   * complete days (each with the next day's first instant, read with it), and complete results whose
   * filters the query's include — for a query naming an enterprise, only when they can answer for it
   * (mayAnswerEnterprise; a result that named it can). `localOnly`: the query asks what only the
   * local history can answer.
   */
  async intervals(
    scope: Pick<HistoryScope, 'key' | 'enterpriseId'>,
    from: number,
    to: number,
    queryFilters: WireFilters,
    localOnly = false,
  ): Promise<Interval[]> {
    const h = await this.load(scope.key);
    const asked = queryFilters['enterprise-id'];
    const mayAnswer = await this.mayAnswerEnterprise(scope, asked, from, to, localOnly);
    const out: Interval[] = [];
    for (const day of mayAnswer ? h.days : []) {
      const start = startOf(day);
      if (start > to || start + DAY_MS < from) continue;
      out.push({ from: start, until: start + DAY_MS + 1 });
    }
    for (const r of h.results) {
      if (r.from > to || r.to < from || !resultServes(r, queryFilters)) continue;
      if (!mayAnswer && r.filters['enterprise-id'] !== asked) continue;
      out.push({ from: r.from, until: r.to + 1 });
    }
    return out;
  }

  /** The complete days of the scope (for the local-only answers' note of what they could not search). */
  async completeDays(scope: string): Promise<readonly string[]> {
    return (await this.load(scope)).days;
  }
}
