/**
 * When a complete result of the page cache becomes local history: only when every one of its pages
 * was read after its range settled. A page read before may hold a status that changed since, and
 * the count alone cannot tell (it stays the same once the range has ended).
 */
import { describe, expect, it, vi } from 'vitest';
import type { Cdr, ResultPage } from '../cdr/schema';
import { upstreamBase } from '../query/wire';
import type { HistoryStore } from './store/history-store';
import type { CachedPage, PageCacheStore } from '../cache/page-cache-store';
import type { HistoryIndex } from './history-index';
import { ResultRecorder } from './result-recorder';

const HOUR = 3_600_000;
const SETTLE_MS = 72 * HOUR;
const FROM = Date.parse('2026-11-01T00:00:00Z');
const TO = Date.parse('2026-11-01T06:00:00Z');
const base = upstreamBase({ from: new Date(FROM), to: new Date(TO), filters: {} }, { enterpriseId: null, pageSize: 2 });
const account = { apiKey: 'demo', enterpriseId: null };

function cdr(n: number, status: string): Cdr {
  return {
    trx_id: `${n}`.padStart(32, '0'),
    date_received: '2026-11-01 01:00:00+0000',
    delivery_status: status,
  } as unknown as Cdr;
}

/** A cache holding the result's two pages (2 records each), read at these instants. */
function cacheWith(fetchedAt: [number, number]): PageCacheStore {
  const pages = fetchedAt.map((at, i): CachedPage => {
    const body = {
      page: i + 1,
      page_size: 2,
      _links: {},
      _embedded: { total_found: 4, cdrs: [cdr(2 * i, 'ENROUTE'), cdr(2 * i + 1, 'DELIVRD')] },
    } as unknown as ResultPage;
    return {
      queryKey: base.key,
      sortOrder: 'asc',
      page: i + 1,
      totalFound: 4,
      body,
      fetchedAt: at,
      expiresAt: at + HOUR,
    };
  });
  return {
    getPage: async (_a, _k, _s, page) => pages[page - 1] ?? null,
    countPages: vi.fn(
      async (_a: string, _k: string, _s: string, total: number, since: number) =>
        pages.filter((p) => p.totalFound === total && p.fetchedAt >= since).length,
    ),
  } as Partial<PageCacheStore> as PageCacheStore;
}

async function recorded(fetchedAt: [number, number], now: number, sinceDay: string | null = null) {
  const settings = sinceDay === null ? null : { sinceDay };
  const history = {
    getSettings: vi.fn(async () => settings),
    results: vi.fn(async () => []),
    addResultRecords: vi.fn(async () => undefined),
    putResult: vi.fn(async () => undefined),
  };
  const cache = cacheWith(fetchedAt);
  const recorder = new ResultRecorder({
    cache,
    history: history as Partial<HistoryStore> as HistoryStore,
    index: { invalidate: vi.fn() } as Partial<HistoryIndex> as HistoryIndex,
    settlesAt: (to) => to + SETTLE_MS,
    pageSize: 2,
    maxDays: 400,
    now: () => now,
  });
  recorder.note(account, base, 'asc', 4);
  // The pages are counted first; what follows (or not) is done a few turns later.
  await vi.waitFor(() => expect(cache.countPages).toHaveBeenCalled());
  await new Promise((r) => setTimeout(r, 20));
  return history;
}

describe('a complete result of the page cache becomes local history', () => {
  const settled = TO + SETTLE_MS;

  it('when every page was read after its range settled', async () => {
    const history = await recorded([settled + HOUR, settled + 2 * HOUR], settled + 3 * HOUR);
    expect(history.addResultRecords).toHaveBeenCalledTimes(2);
    expect(history.putResult).toHaveBeenCalledWith(
      expect.any(String),
      expect.objectContaining({ key: base.key, from: FROM, to: TO }),
      4,
      settled + 3 * HOUR,
    );
  });

  it('not when it starts before the first day the local history keeps (it would be deleted)', async () => {
    const history = await recorded([settled + HOUR, settled + 2 * HOUR], settled + 3 * HOUR, '2026-11-02');
    expect(history.addResultRecords).not.toHaveBeenCalled();
    expect(history.putResult).not.toHaveBeenCalled();
    // On or after the start day, it is.
    expect(
      (await recorded([settled + HOUR, settled + 2 * HOUR], settled + 3 * HOUR, '2026-11-01')).putResult,
    ).toHaveBeenCalled();
  });

  it('not when a page was read before (its statuses may have changed since)', async () => {
    const history = await recorded([settled - 2 * HOUR, settled + 2 * HOUR], settled + 3 * HOUR);
    expect(history.addResultRecords).not.toHaveBeenCalled();
    expect(history.putResult).not.toHaveBeenCalled();
  });
});
