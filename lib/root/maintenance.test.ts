import { describe, expect, it } from 'vitest';
import { forEachBackend } from '../../tests/support/backends';
import { STALE_GRACE_MS } from '../cache/cache-policy';
import { pruneStore } from './maintenance';

describe('pruneStore', () => {
  forEachBackend((open) => {
    it('drops old calls, long-expired pages, ended sessions and old sign-in failures, and keeps the rest', async () => {
      const store = await open();
      const now = Date.UTC(2026, 10, 20);
      await store.ledger.recordCall({ account: 'a', at: now - 3 * 86_400_000, kind: 'query', cls: 'interactive' });
      await store.ledger.recordCall({ account: 'a', at: now - 3600_000, kind: 'query', cls: 'interactive' });
      const page = {
        queryKey: 'k',
        sortOrder: 'asc' as const,
        page: 1,
        totalFound: 0,
        body: { page: 1, page_size: 100, _links: {}, _embedded: { total_found: 0, cdrs: [] } },
        fetchedAt: now,
      };
      await store.cache.putPage('a', { ...page, expiresAt: now - STALE_GRACE_MS - 1 });
      await store.cache.putPage('a', { ...page, page: 2, expiresAt: now - 1000 });
      await store.vault.put({
        sid: 'old',
        apiKey: 'a',
        enterpriseId: null,
        sealedSecret: 'x',
        createdAt: 0,
        expiresAt: now - 1,
      });
      await store.vault.put({
        sid: 'live',
        apiKey: 'a',
        enterpriseId: null,
        sealedSecret: 'x',
        createdAt: 0,
        expiresAt: now + 1000,
      });

      await store.signInAttempts.update('key:old', () => ({
        next: { failures: 3, lastFailureAt: now - 3 * 3600_000 },
        result: null,
      }));
      await store.signInAttempts.update('key:recent', () => ({
        next: { failures: 3, lastFailureAt: now - 3600_000 },
        result: null,
      }));

      await pruneStore({ ...store, signInStreakMs: 2 * 3600_000 }, now);

      expect((await store.ledger.callsSince(0)).map((c) => c.at)).toEqual([now - 3600_000]);
      expect(await store.cache.getPage('a', 'k', 'asc', 1)).toBeNull();
      expect(await store.cache.getPage('a', 'k', 'asc', 2)).not.toBeNull(); // expired, still a stand-in
      expect(await store.vault.get('old', 0)).toBeNull();
      expect(await store.vault.get('live', now)).not.toBeNull();
      expect([...(await store.signInAttempts.read(['key:old', 'key:recent'])).keys()]).toEqual(['key:recent']);
    });
  });
});
