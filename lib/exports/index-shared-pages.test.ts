import { describe, expect, it, vi } from 'vitest';
import type { CachedPage } from '../cache/page-cache-store';
import type { ExportJobRecord, StoredWindow } from './job-row';
import { indexSharedPages, PAGES_PER_INDEX_WRITE } from './index-shared-pages';
import { createJobRecord, windowBase } from './job-record';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 9, 1);

function job(windows: Partial<StoredWindow>[]): ExportJobRecord {
  const j = createJobRecord({
    id: 'j',
    account: { apiKey: 'demo', sid: 's', enterpriseId: null },
    frozen: {
      query: {
        from: new Date(T0),
        to: new Date(T0 + windows.length * DAY - 1000),
        tz: 'UTC',
        sortOrder: 'asc',
        sort: 'date_received',
        filters: {},
      },
      requestedTo: null,
    },
    columns: ['trx_id'],
    pageSize: 100,
    now: T0,
  });
  j.windows = windows.map((w, i) => ({
    id: i + 1,
    from: T0 + i * DAY,
    to: T0 + (i + 1) * DAY - 1000,
    state: 'done',
    totalFound: 0,
    pagesDone: 0,
    pagesTotal: 0,
    received: 0,
    ...w,
  }));
  return j;
}

/** A cache holding every page asked for but page 3 of the first window (replaced, or pruned). */
function cacheFor(j: ExportJobRecord) {
  const missing = `${windowBase(j, j.windows[0]!).key}|3`;
  return {
    getPage: vi.fn(
      async (_account: string, key: string, sortOrder: 'asc' | 'desc', page: number): Promise<CachedPage | null> =>
        `${key}|${page}` === missing
          ? null
          : {
              queryKey: key,
              sortOrder,
              page,
              totalFound: 1,
              body: { _embedded: { total_found: 1, cdrs: [] } } as never,
              fetchedAt: 0,
              expiresAt: 1,
            },
    ),
    indexPageRecords: vi.fn(async (_account: string, _pages: readonly CachedPage[]) => {}),
  };
}

describe('the index of an export’s shared pages', () => {
  it('indexes every page its windows read, as the cache holds them, many pages a write', async () => {
    const j = job([
      { pagesDone: 30 },
      { state: 'split', pagesDone: 0 },
      { pagesDone: 15 },
      { local: { ranges: [] }, pagesDone: 4 },
    ]);
    const cache = cacheFor(j);
    expect(await indexSharedPages(cache, j)).toBe(44);
    const writes = cache.indexPageRecords.mock.calls.map(([account, pages]) => [account, pages.length]);
    expect(writes).toEqual([
      ['demo', PAGES_PER_INDEX_WRITE],
      ['demo', PAGES_PER_INDEX_WRITE],
      ['demo', 4],
    ]);
    // The split window's and the local window's pages were never the cache's to index.
    const asked = new Set(cache.getPage.mock.calls.map(([, key]) => key));
    expect(asked).toEqual(new Set([windowBase(j, j.windows[0]!).key, windowBase(j, j.windows[2]!).key]));
  });

  it('stops at the next page once the server stops', async () => {
    const j = job([{ pagesDone: 50 }]);
    const cache = cacheFor(j);
    const stopping = new AbortController();
    cache.indexPageRecords.mockImplementationOnce(async () => stopping.abort());
    expect(await indexSharedPages(cache, j, stopping.signal)).toBe(PAGES_PER_INDEX_WRITE);
    expect(cache.indexPageRecords).toHaveBeenCalledTimes(1);
  });

  it('writes nothing for an export that read no page', async () => {
    const j = job([{ pagesDone: 0 }]);
    const cache = cacheFor(j);
    expect(await indexSharedPages(cache, j)).toBe(0);
    expect(cache.indexPageRecords).not.toHaveBeenCalled();
  });
});
