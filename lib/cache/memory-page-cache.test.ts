import { describe, expect, it, vi } from 'vitest';
import type { ResultPage } from '../cdr/schema';
import { withMemoryCache } from './memory-page-cache';
import type { CachedPage, PageCacheStore } from './page-cache-store';

const body: ResultPage = { page: 1, page_size: 100, _links: {}, _embedded: { total_found: 0, cdrs: [] } };
const NOW = 500;
const page = (n: number, over: Partial<CachedPage> = {}): CachedPage => ({
  queryKey: 'k',
  sortOrder: 'asc',
  page: n,
  totalFound: 0,
  body,
  fetchedAt: 1,
  expiresAt: 1000,
  ...over,
});

function fakeStore(): PageCacheStore & { reads: number } {
  const rows = new Map<string, CachedPage>();
  const store = {
    reads: 0,
    async getPage(account: string, key: string, sort: string, n: number) {
      store.reads += 1;
      return rows.get(`${account}|${key}|${sort}|${n}`) ?? null;
    },
    async anyPage() {
      store.reads += 1;
      return null;
    },
    async putPage(account: string, p: CachedPage) {
      rows.set(`${account}|${p.queryKey}|${p.sortOrder}|${p.page}`, p);
    },
    indexPageRecords: vi.fn(async () => {}),
    countPages: vi.fn(async () => 0),
    getRecord: vi.fn(async () => null),
    putRecords: vi.fn(async () => {}),
    prune: vi.fn(async () => {}),
    async forget(account: string) {
      for (const key of [...rows.keys()]) if (key.startsWith(`${account}|`)) rows.delete(key);
    },
  };
  return store;
}

describe('the in-memory page cache', () => {
  it('answers a page asked again without reading the store, the same decoded object', async () => {
    const store = fakeStore();
    const cache = withMemoryCache(store, 10, () => NOW);
    await cache.putPage('a', page(1));
    const first = await cache.getPage('a', 'k', 'asc', 1);
    const again = await cache.getPage('a', 'k', 'asc', 1);
    expect(store.reads).toBe(0);
    expect(again).toBe(first);
  });

  it('looks an expired copy up in the store, where another instance may have put a fresh one', async () => {
    const store = fakeStore();
    let now = NOW;
    const cache = withMemoryCache(store, 10, () => now);
    await cache.putPage('a', page(1, { expiresAt: 1000 }));
    now = 2000; // expired in memory; another instance fetched it again meanwhile:
    await store.putPage('a', page(1, { fetchedAt: 1900, expiresAt: 3000 }));
    store.reads = 0;
    expect((await cache.getPage('a', 'k', 'asc', 1))?.fetchedAt).toBe(1900);
    expect(store.reads).toBe(1);
  });

  it('keeps accounts apart', async () => {
    const cache = withMemoryCache(fakeStore(), 10, () => NOW);
    await cache.putPage('a', page(1));
    expect(await cache.getPage('b', 'k', 'asc', 1)).toBeNull();
  });

  it('holds at most its bound, dropping the least recently used', async () => {
    const store = fakeStore();
    const cache = withMemoryCache(store, 2, () => NOW);
    await cache.putPage('a', page(1));
    await cache.putPage('a', page(2));
    await cache.getPage('a', 'k', 'asc', 1); // 1 is now the most recent
    await cache.putPage('a', page(3)); // drops 2
    store.reads = 0;
    await cache.getPage('a', 'k', 'asc', 1);
    await cache.getPage('a', 'k', 'asc', 3);
    expect(store.reads).toBe(0);
    await cache.getPage('a', 'k', 'asc', 2);
    expect(store.reads).toBe(1);
  });

  it('tells the total of a query from a fresh page in memory, and asks the store once it expired', async () => {
    const store = fakeStore();
    const cache = withMemoryCache(store, 10, () => NOW);
    await cache.putPage('a', page(4, { totalFound: 350 }));
    expect((await cache.anyPage('a', 'k', 500))?.totalFound).toBe(350);
    expect(store.reads).toBe(0);
    expect(await cache.anyPage('a', 'k', 2000)).toBeNull();
    expect(store.reads).toBe(1);
  });

  it('forgets an account’s pages here and in the store, and no other account’s', async () => {
    const store = fakeStore();
    const cache = withMemoryCache(store, 10, () => NOW);
    await cache.putPage('a', page(1));
    await cache.putPage('b', page(1));
    await cache.forget('a');
    expect(await cache.getPage('a', 'k', 'asc', 1)).toBeNull();
    expect(await cache.anyPage('a', 'k', NOW)).toBeNull();
    expect(await cache.getPage('b', 'k', 'asc', 1)).not.toBeNull();
  });
});
