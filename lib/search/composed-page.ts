import 'server-only';
/**
 * The composed executor: a page of a plan whose range is held partly by the local history and partly
 * only upstream (the planner cut it into pieces): the pieces in the query's sort order, each with
 * its count (the local one counted in the store, the upstream one known from the cache or learned
 * with the page the answer needs), the page's positions taken from whichever pieces hold them. The
 * result is what one upstream query over the whole range would answer: the same records, the same
 * total, the same order — pieces never overlap and received time orders them. `composedCost` is its
 * dry run, the planner's price of such a plan.
 */
import type { TransactionsQuery } from '../query/query';
import { reachableRecords } from '../query/ranges';
import { upstreamBase } from '../query/wire';
import type { CachedPage, CachedPages, UpstreamPages } from '../cache/server';
import type { HistoryStore } from '../history/server';
import type { UpstreamAccount } from '../upstream/server';
import type { Cdr } from '../cdr/schema';
import { countLocal, readLocal } from './local-answer';
import type { Piece } from './range-pieces';

/** A plan's pieces (a `local` or `composed` plan) and whose history they read. */
export interface PiecesPlan {
  scope: string;
  pieces: readonly Piece[];
}

export interface ComposedSlice {
  total: number;
  records: Cdr[];
  calls: number;
  /** The upstream pages the answer used (their ages are the answer's). */
  pages: CachedPage[];
  usedLocal: boolean;
  usedUpstream: boolean;
  stale?: string;
  notWhole?: string;
  /** Whether pages were read from the upstream for this answer (see SliceResult.fresh). */
  fresh: boolean;
  /**
   * Positions before this one can be served: an upstream piece is read in the query's order, and
   * only its first reachableRecords are within the upstream's reach (Infinity: every position).
   */
  reachable: number;
}

export interface ComposeDeps {
  pages: Pick<UpstreamPages, 'slice' | 'cached'>;
  history: Pick<HistoryStore, 'slice'>;
  upstreamPageSize: number;
}

export interface ComposeCostDeps {
  cached: Pick<CachedPages, 'callsFor' | 'knownTotal'>;
  history: Pick<HistoryStore, 'count'>;
  upstreamPageSize: number;
}

/** Positions [start, end) of the query, from the pieces. */
export async function composedSlice(
  deps: ComposeDeps,
  account: UpstreamAccount,
  { scope, pieces }: PiecesPlan,
  query: TransactionsQuery,
  start: number,
  end: number,
  signal?: AbortSignal,
): Promise<ComposedSlice> {
  const ordered = query.sortOrder === 'asc' ? pieces : [...pieces].reverse();
  const out: ComposedSlice = {
    total: 0,
    records: [],
    calls: 0,
    pages: [],
    usedLocal: false,
    usedUpstream: false,
    fresh: false,
    reachable: Number.POSITIVE_INFINITY,
  };
  const reach = reachableRecords(deps.upstreamPageSize);
  let offset = 0;
  for (const piece of ordered) {
    // Where the wanted positions fall in this piece (as if it held them all: clipped below).
    const from = Math.max(0, start - offset);
    const until = Math.max(from, end - offset);
    if (piece.kind === 'local') {
      const { total, records } = await readLocal(deps.history, scope, query, [piece], from, until - from);
      out.records.push(...records);
      out.usedLocal = true;
      offset += total;
    } else {
      const base = upstreamBase(
        { from: new Date(piece.from), to: new Date(piece.to), filters: query.filters },
        { enterpriseId: account.enterpriseId, pageSize: deps.upstreamPageSize },
      );
      const needed = until > from;
      // The piece's count is needed even when the page lies elsewhere: a fresh page of it in the
      // cache (either order) says it for free; else its first page is read, which says it too.
      const counting = needed ? null : await deps.pages.cached.countingPage(account.apiKey, base);
      if (counting) {
        out.pages.push(counting); // the total is as old as this page
        out.usedUpstream = true;
        if (counting.totalFound > reach) out.reachable = Math.min(out.reachable, offset + reach);
        offset += counting.totalFound;
        continue;
      }
      const slice = await deps.pages.slice(
        account,
        base,
        piece.to,
        query.sortOrder,
        needed ? from : 0,
        needed ? until : 1,
        'interactive',
        signal,
      );
      if (needed) out.records.push(...slice.records);
      out.calls += slice.calls;
      out.fresh ||= slice.fresh;
      out.pages.push(...slice.pages);
      out.usedUpstream = true;
      if (slice.stale) out.stale = slice.stale;
      if (slice.notWhole) out.notWhole = slice.notWhole;
      // Past this piece's reach, the positions after it are not offered either (paging is a prefix).
      if (slice.total > reach) out.reachable = Math.min(out.reachable, offset + reach);
      offset += slice.total;
    }
  }
  out.total = offset;
  return out;
}

/** What the composed answer would cost now: upstream pieces whose needed pages are not cached. */
export async function composedCost(
  deps: ComposeCostDeps,
  account: Pick<UpstreamAccount, 'apiKey' | 'enterpriseId'>,
  { scope, pieces }: PiecesPlan,
  query: TransactionsQuery,
  start: number,
  end: number,
): Promise<{ calls: number; atLeast: boolean }> {
  const ordered = query.sortOrder === 'asc' ? pieces : [...pieces].reverse();
  let calls = 0;
  let offset = 0;
  for (const piece of ordered) {
    const from = Math.max(0, start - offset);
    const until = Math.max(from, end - offset);
    if (piece.kind === 'local') {
      offset += await countLocal(deps.history, scope, query, [piece]);
      continue;
    }
    const base = upstreamBase(
      { from: new Date(piece.from), to: new Date(piece.to), filters: query.filters },
      { enterpriseId: account.enterpriseId, pageSize: deps.upstreamPageSize },
    );
    const needed = until > from;
    const known = await deps.cached.knownTotal(account.apiKey, base);
    // A page lying elsewhere is read only to learn an unknown count (as composedSlice does).
    if (needed || known === null)
      calls += (
        await deps.cached.callsFor(
          account.apiKey,
          base,
          piece.to,
          query.sortOrder,
          needed ? from : 0,
          needed ? until : 1,
        )
      ).calls;
    // An unknown count: the call above learns it; where the later pieces' positions fall is not
    // known before then, so the estimate stops here (at least this many calls, unless it was the last).
    if (known === null) return { calls, atLeast: piece !== ordered[ordered.length - 1] };
    offset += known;
  }
  return { calls, atLeast: false };
}
