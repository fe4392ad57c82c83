/**
 * A composed answer (local pieces and upstream ones) says how far it can be paged: an upstream
 * piece is read in the query's order, and the upstream serves its first 1000 pages only.
 */
import { describe, expect, it } from 'vitest';
import type { Piece } from './range-pieces';
import { parseQuery, type TransactionsQuery } from '../query/query';
import type { HistoryStore } from '../history/store/history-store';
import { composedSlice } from './composed-page';
import type { UpstreamAccount } from '../upstream/gateway';
import type { UpstreamPages } from '../cache/upstream-pages';
import type { CachedPages } from '../cache/cached-pages';

const HOUR = 3_600_000;
const FROM = Date.parse('2026-11-01T00:00:00Z');
const account: UpstreamAccount = { apiKey: 'demo', enterpriseId: null } as UpstreamAccount;

function query(order: 'asc' | 'desc'): TransactionsQuery {
  const r = parseQuery({
    'date-from': '2026-11-01 00:00:00',
    'date-to': '2026-11-01 02:59:59',
    'sort-order': order,
    'page-size': '10',
  });
  if (!r.ok) throw new Error('bad query');
  return r.query;
}

/** Each piece's record count; the stand-ins answer counts only (no page of records is asked here). */
function deps(local: number, upstream: number) {
  const pages = {
    slice: async () => ({ total: upstream, records: [], pages: [], calls: 0, fresh: false }),
    cached: { countingPage: async () => null } as unknown as CachedPages,
  } as unknown as UpstreamPages;
  const history = { slice: async () => ({ total: local, bodies: [] }) } as unknown as HistoryStore;
  // Pages of 1 record: the upstream's reach is 1,000 records.
  return { pages, history, upstreamPageSize: 1 };
}

const pieces: Piece[] = [
  { kind: 'local', from: FROM, to: FROM + HOUR - 1 },
  { kind: 'upstream', from: FROM + HOUR, to: FROM + 3 * HOUR - 1 },
];

describe('how far a composed answer can be paged', () => {
  it('ends where an upstream piece larger than the reach stops being served', async () => {
    // Ascending: the local piece's 50, then the upstream piece's first 1,000 of 1,500.
    const asc = await composedSlice(deps(50, 1500), account, { scope: 'scope', pieces }, query('asc'), 0, 0);
    expect([asc.total, asc.reachable]).toEqual([1550, 1050]);
    // Descending: the upstream piece comes first, and nothing after its reach is offered.
    const desc = await composedSlice(deps(50, 1500), account, { scope: 'scope', pieces }, query('desc'), 0, 0);
    expect([desc.total, desc.reachable]).toEqual([1550, 1000]);
  });

  it('offers every position when each upstream piece is within the reach', async () => {
    const answer = await composedSlice(deps(50, 1000), account, { scope: 'scope', pieces }, query('desc'), 0, 0);
    expect([answer.total, answer.reachable]).toEqual([1050, Number.POSITIVE_INFINITY]);
  });
});
