import 'server-only';
/**
 * Decoded upstream pages kept in memory in front of the durable page cache, so a page asked for
 * again is answered without reading, parsing and validating its stored JSON. Bounded: the least
 * recently used pages are dropped past `maxPages` (a page is about 100 records, ~150 KB decoded).
 * Writes go through to the store, so every instance and every restart still finds them there.
 *
 * Pages are immutable snapshots of an upstream answer (a newer answer replaces the entry), so
 * serving a copy held here is as right as serving it from the store.
 */
import type { CachedPage, CachedRecord, PageCacheStore } from './page-cache-store';

const SEP = '\u0000';

export function withMemoryCache(store: PageCacheStore, maxPages: number, now: () => number = Date.now): PageCacheStore {
  /** account, key, sort, page → page; Map iteration order is the LRU order (oldest first). */
  const pages = new Map<string, CachedPage>();
  /** account, key → the newest page of that query (either sort): what `anyPage` answers from. */
  const newest = new Map<string, CachedPage>();

  const pageId = (account: string, key: string, sort: string, page: number) =>
    `${account}${SEP}${key}${SEP}${sort}${SEP}${page}`;
  const queryId = (account: string, key: string) => `${account}${SEP}${key}`;

  const remember = (account: string, page: CachedPage) => {
    const id = pageId(account, page.queryKey, page.sortOrder, page.page);
    pages.delete(id);
    pages.set(id, page);
    const q = queryId(account, page.queryKey);
    const known = newest.get(q);
    if (!known || known.fetchedAt <= page.fetchedAt) newest.set(q, page);
    while (pages.size > maxPages) {
      const [oldestId, oldest] = pages.entries().next().value as [string, CachedPage];
      pages.delete(oldestId);
      const oq = `${oldestId.split(SEP, 2).join(SEP)}`;
      if (newest.get(oq) === oldest) newest.delete(oq);
    }
  };

  return {
    async getPage(account, queryKey, sortOrder, page) {
      const id = pageId(account, queryKey, sortOrder, page);
      const hit = pages.get(id);
      // An expired copy is looked up in the store too: another instance may have fetched the page
      // again since (the store is shared), and this one would otherwise pay a call for it.
      if (hit && hit.expiresAt > now()) {
        pages.delete(id);
        pages.set(id, hit);
        return hit;
      }
      const stored = await store.getPage(account, queryKey, sortOrder, page);
      if (stored) remember(account, stored);
      return stored;
    },
    async anyPage(account, queryKey, now) {
      const hit = newest.get(queryId(account, queryKey));
      if (hit && hit.expiresAt > now) return hit;
      return store.anyPage(account, queryKey, now);
    },
    async putPage(account, page, options) {
      await store.putPage(account, page, options);
      remember(account, page);
    },
    indexPageRecords: (account, pages) => store.indexPageRecords(account, pages),
    countPages: (account, queryKey, sortOrder, totalFound, fetchedSince) =>
      store.countPages(account, queryKey, sortOrder, totalFound, fetchedSince),
    getRecord: (account, trxId): Promise<CachedRecord | null> => store.getRecord(account, trxId),
    putRecords: (account, cdrs, fetchedAt, expiresAt) => store.putRecords(account, cdrs, fetchedAt, expiresAt),
    async prune(now) {
      await store.prune(now);
      for (const [id, page] of pages) if (page.expiresAt < now) pages.delete(id);
      for (const [id, page] of newest) if (page.expiresAt < now) newest.delete(id);
    },
    async forget(account) {
      // This instance's copies go too (another instance's go as they age out of its memory).
      const prefix = `${account}${SEP}`;
      for (const id of pages.keys()) if (id.startsWith(prefix)) pages.delete(id);
      for (const id of newest.keys()) if (id.startsWith(prefix)) newest.delete(id);
      await store.forget(account);
    },
  };
}
