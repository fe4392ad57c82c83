import 'server-only';
/**
 * What the local history holds completely for a scope — its complete days and the complete results
 * of the page cache — as intervals of instants a query can be answered from (coverage.ts cuts the
 * query by them). Read from the store and kept a few seconds, so a cached page does not pay two
 * queries for it; a write in this process forgets the scope's copy at once.
 */
import type { HistoryResult, HistoryStore } from '../store/history-store';
import { type Interval } from './coverage';
import { DAY_MS, startOf } from './days';
import { enterpriseOfScope } from './scope';

/** How long the held intervals of a scope are reused (another instance's new day shows after this). */
const TTL_MS = 5_000;

/** The upstream parameters that are filters (the rest say range, size and zone). */
const NOT_FILTERS = new Set(['date-from', 'date-to', 'page-size', 'page', 'tz', 'sort-order']);

export function filtersOfParams(params: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(params).filter(([k]) => !NOT_FILTERS.has(k)));
}

/** A result can answer a query when every filter of the result is a filter of the query: the query asks for a part of it. */
export function resultServes(result: Pick<HistoryResult, 'filters'>, queryFilters: Readonly<Record<string, string>>): boolean {
  return Object.entries(result.filters).every(([k, v]) => queryFilters[k] === v);
}

interface Held {
  days: string[];
  results: HistoryResult[];
  /** Whether the scope holds records of an enterprise, by enterprise, as asked. */
  enterprises: Map<string, boolean>;
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
    const [days, results] = await Promise.all([this.store.completeDays(scope, '0000-01-01', '9999-12-31'), this.store.results(scope)]);
    const fresh = { days, results, enterprises: new Map<string, boolean>(), at: now };
    this.held.set(scope, fresh);
    return fresh;
  }

  /** Whether the scope holds anything at all (most accounts: nothing, and then nothing is asked). */
  async holdsAnything(scope: string): Promise<boolean> {
    const h = await this.load(scope);
    return h.days.length > 0 || h.results.length > 0;
  }

  /**
   * Whether complete days can answer for the enterprise a query names. A session signed in for no
   * enterprise copies what its key may read, and the upstream refuses (403) an enterprise the key
   * may not read. Days holding no record of the enterprise cannot tell "none sent" from "not
   * yours": such a query is the upstream's to answer (once: a complete answer is kept as a
   * result, below). An enterprise the copy holds records of is one the key may read.
   */
  private async daysAnswerFor(scope: string, h: Held, enterpriseId: string | undefined): Promise<boolean> {
    if (enterpriseId === undefined || enterpriseId === enterpriseOfScope(scope)) return true;
    let holds = h.enterprises.get(enterpriseId);
    if (holds === undefined) {
      holds = await this.store.holdsEnterprise(scope, enterpriseId);
      h.enterprises.set(enterpriseId, holds);
    }
    return holds;
  }

  /**
   * Intervals of [from, to] the scope holds every record of, for a query with these upstream filters:
   * complete days (each with the next day's first instant, read with it) unless the query names an
   * enterprise they cannot answer for, and complete results whose filters the query's include.
   */
  async intervals(scope: string, from: number, to: number, queryFilters: Readonly<Record<string, string>>): Promise<Interval[]> {
    const h = await this.load(scope);
    const out: Interval[] = [];
    const days = (await this.daysAnswerFor(scope, h, queryFilters['enterprise-id'])) ? h.days : [];
    for (const day of days) {
      const start = startOf(day);
      if (start > to || start + DAY_MS < from) continue;
      out.push({ from: start, until: start + DAY_MS + 1 });
    }
    for (const r of h.results) {
      if (r.from > to || r.to < from || !resultServes(r, queryFilters)) continue;
      out.push({ from: r.from, until: r.to + 1 });
    }
    return out;
  }

  /** The complete days of the scope (for the local-only answers' note of what they could not search). */
  async completeDays(scope: string): Promise<readonly string[]> {
    return (await this.load(scope)).days;
  }
}
