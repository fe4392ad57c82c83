import 'server-only';
/**
 * How many records each window of a plan holds, without a call: exactly, when the dashboard's page
 * cache holds a fresh page of that very query (a search or an export read it); about, from the
 * local history's typical day (its complete days' average) times the window's length; else not
 * known. Sizes are not guessed beyond that: the window's first page says it (./plan-upstream.ts).
 */
import type { PageCacheStore } from '../cache/server';
import type { HistoryStore } from '../history/server';
import { MAX_PAGE } from '../query/query';
import type { TimeRange } from '../query/ranges';
import { upstreamBase, type UpstreamBase } from '../query/wire';
import { DAY_MS } from '../time/units';
import type { WindowSize } from './plan-upstream';

export interface SizeDeps {
  cache: Pick<PageCacheStore, 'anyPage' | 'getPage'>;
  history: Pick<HistoryStore, 'listDays'>;
  now(): number;
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
  const now = deps.now();
  let typical: number | null | undefined;
  const sizes: WindowSize[] = [];
  for (const w of windows) {
    const key = windowQuery(w, account, pageSize).key;
    const known = await deps.cache.anyPage(account.apiKey, key, now);
    if (known) {
      const pages = Math.min(MAX_PAGE, Math.ceil(known.totalFound / pageSize));
      let cachedPages = 0;
      for (let p = 1; p <= pages; p++) {
        const page = await deps.cache.getPage(account.apiKey, key, 'asc', p);
        if (page && page.expiresAt > now && page.totalFound === known.totalFound) cachedPages += 1;
      }
      sizes.push({ records: known.totalFound, known: 'exact', cachedPages });
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
