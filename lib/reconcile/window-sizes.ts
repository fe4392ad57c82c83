import 'server-only';
/**
 * How many records each window of a plan holds, without a call: exactly, when the dashboard's page
 * cache holds a fresh page of that very query (a search or an export read it), with the calls its
 * pages the cache does not hold would cost (lib/cache CachedPages); about, from the
 * local history's typical day (its complete days' average) times the window's length; else not
 * known. Sizes are not guessed beyond that: the window's first page says it (./plan-upstream.ts).
 */
import type { CachedPages } from '../cache/server';
import type { HistoryStore } from '../history/server';
import { MAX_PAGE } from '../query/query';
import type { TimeRange } from '../query/ranges';
import { upstreamBase, type UpstreamBase } from '../query/wire';
import { DAY_MS } from '../time/units';
import type { WindowSize } from './plan-upstream';

export interface SizeDeps {
  /** The page cache's own answers: a window's total, and the calls its pages still need. */
  cached: Pick<CachedPages, 'knownTotal' | 'callsFor'>;
  history: Pick<HistoryStore, 'listDays'>;
}

export interface SizeAccount {
  apiKey: string;
  enterpriseId: string | null;
  /** The local history's key of the account (lib/history scopeOf). */
  scope: string;
}

/** The upstream query of a whole window (its key is what the page cache is keyed by). */
export function windowQuery(
  w: TimeRange,
  account: { enterpriseId: string | null },
  pageSize: number,
  filter?: { param: 'client-reference' | 'da'; value: string },
): UpstreamBase {
  return upstreamBase(
    { from: new Date(w.from), to: new Date(w.to), filters: filter ? { [filter.param]: filter.value } : {} },
    { enterpriseId: account.enterpriseId, pageSize },
  );
}

/** Records a complete day of the account's local history holds, on average; null without one. */
async function typicalDay(deps: SizeDeps, scope: string): Promise<number | null> {
  const complete = (await deps.history.listDays(scope)).filter((d) => d.state === 'complete');
  if (complete.length === 0) return null;
  return complete.reduce((s, d) => s + d.records, 0) / complete.length;
}

export async function windowSizes(
  deps: SizeDeps,
  account: SizeAccount,
  windows: readonly TimeRange[],
  pageSize: number,
): Promise<WindowSize[]> {
  let typical: number | null | undefined;
  const sizes: WindowSize[] = [];
  for (const w of windows) {
    const base = windowQuery(w, account, pageSize);
    const total = await deps.cached.knownTotal(account.apiKey, base);
    if (total !== null) {
      // Pages the cache holds fresh cost nothing: the cache's own dry run says how many do not.
      const { calls } = await deps.cached.callsFor(account.apiKey, base, w.to, 'asc', 0, total);
      const pages = Math.min(MAX_PAGE, Math.ceil(total / pageSize));
      sizes.push({ records: total, known: 'exact', cachedPages: Math.max(0, pages - calls) });
      continue;
    }
    typical ??= await typicalDay(deps, account.scope);
    sizes.push(
      typical === null
        ? { records: null, known: 'unknown', cachedPages: 0 }
        : { records: Math.round((typical * (w.to - w.from)) / DAY_MS), known: 'estimate', cachedPages: 0 },
    );
  }
  return sizes;
}
