/**
 * A search's plan, as a value: how its range divides between the local history and the upstream.
 * The planner (planner.ts) makes it; the executors carry it out for a page (execute.ts) or price it
 * before the search (GET /api/plan, planner.ts `price`). Both start from the same plan, so the
 * price said beside Search is the price of the search made.
 */
import type { SearchPlan, UncoveredRange } from './api';
import type { HeldRange, Piece } from './range-pieces';
import type { QuotaSnapshot } from '../governor';
import { wallClocks } from '../query/query';
import type { Zone } from '../time/zones';

export type Plan =
  /**
   * The query asks what only the local history can answer (free text, its own filters, another
   * order): it is read from the parts of the range the history holds, `ranges`; `gaps` it cannot search.
   */
  | { kind: 'local-only'; scope: string; ranges: HeldRange[]; gaps: HeldRange[] }
  /** The local history holds every record of the range: no call. */
  | { kind: 'local'; scope: string; pieces: Piece[] }
  /** It holds none of them: the upstream's pages, from the cache while they are fresh. */
  | { kind: 'upstream'; scope: string; piece: Piece }
  /** It holds part: local pieces and upstream pieces, composed in the query's order (composed-page.ts). */
  | { kind: 'composed'; scope: string; pieces: Piece[] };

/** What carrying a plan out would cost now, for the positions asked. */
export interface PlanCost {
  /** Upstream calls: 0 when the local history and the cache answer. */
  calls: number;
  /** `calls` is a lower bound: an upstream piece's size is unknown, so where the later positions fall is too. */
  atLeast: boolean;
  /** For an upstream plan the cache answers: when its oldest page was fetched (ms); else null. */
  oldestFetchedAt: number | null;
}

/** Parts of a range as a person reads them: wall clocks in the query's zone. */
export function uncoveredOf(gaps: readonly HeldRange[], tz: Zone): UncoveredRange[] {
  return gaps.map((g) => wallClocks({ from: new Date(g.from), to: new Date(g.to), tz }));
}

/** GET /api/plan's answer: the plan, its cost and the quota it will be paid from. */
export function searchPlanOf(plan: Plan, cost: PlanCost, quota: QuotaSnapshot, tz: Zone, now: number): SearchPlan {
  switch (plan.kind) {
    case 'local-only':
      return { calls: 0, source: 'history', cachedAgeSeconds: null, quota, uncovered: uncoveredOf(plan.gaps, tz) };
    case 'local':
      return { calls: 0, source: 'history', cachedAgeSeconds: null, quota };
    case 'composed':
      return {
        calls: cost.calls,
        ...(cost.atLeast ? { callsAtLeast: true as const } : {}),
        source: 'mixed',
        cachedAgeSeconds: null,
        quota,
      };
    case 'upstream':
      return {
        calls: cost.calls,
        source: cost.calls > 0 ? 'upstream' : 'cache',
        cachedAgeSeconds: cost.oldestFetchedAt === null ? null : Math.round((now - cost.oldestFetchedAt) / 1000),
        quota,
      };
  }
}
