import { describe, expect, it } from 'vitest';
import { cdrSchema, resultPageSchema, type Cdr } from '../cdr/schema';
import { sampleCdr, samplePage } from '../upstream/test-fixtures';
import { forEachBackend } from '@/tests/support/backends';
import type { CachedPage } from './page-cache-store';

const T0 = Date.UTC(2026, 10, 20);
const cdr = (trxId: string, extra: Record<string, unknown> = {}): Cdr =>
  cdrSchema.parse(sampleCdr({ trx_id: trxId, ...extra }));

function page(n: number, overrides: Partial<CachedPage> = {}): CachedPage {
  const body = resultPageSchema.parse(samplePage([sampleCdr({ trx_id: `p${n}` })], { page: n }));
  return {
    queryKey: 'q',
    sortOrder: 'desc',
    page: n,
    totalFound: 80,
    body,
    fetchedAt: T0,
    expiresAt: T0 + 120_000,
    ...overrides,
  };
}

describe('the page cache', () => {
  forEachBackend((open) => {
    it('gives a page back as it was stored, by account, query, sort order and page', async () => {
      const { cache } = await open();
      const stored = page(2);
      await cache.putPage('demo', stored);
      expect(await cache.getPage('demo', 'q', 'desc', 2)).toEqual(stored);
      expect(await cache.getPage('fuji', 'q', 'desc', 2)).toBeNull();
      expect(await cache.getPage('demo', 'q', 'asc', 2)).toBeNull();
      expect(await cache.getPage('demo', 'other', 'desc', 2)).toBeNull();
      expect(await cache.getPage('demo', 'q', 'desc', 3)).toBeNull();
    });

    it('replaces a page fetched again', async () => {
      const { cache } = await open();
      await cache.putPage('demo', page(1));
      const newer = page(1, { totalFound: 81, fetchedAt: T0 + 5000, expiresAt: T0 + 10_000 });
      await cache.putPage('demo', newer);
      expect(await cache.getPage('demo', 'q', 'desc', 1)).toEqual(newer);
    });

    it('finds the newest fresh page of a query in either sort order', async () => {
      const { cache } = await open();
      await cache.putPage('demo', page(1, { sortOrder: 'asc', fetchedAt: T0, totalFound: 70 }));
      await cache.putPage('demo', page(3, { sortOrder: 'desc', fetchedAt: T0 + 1000, totalFound: 71 }));
      await cache.putPage('demo', page(4, { fetchedAt: T0 + 2000, expiresAt: T0 + 3000 }));
      expect((await cache.anyPage('demo', 'q', T0 + 3000))?.totalFound).toBe(71);
      expect(await cache.anyPage('demo', 'q', T0 + 200_000)).toBeNull();
      expect(await cache.anyPage('fuji', 'q', T0)).toBeNull();
    });

    it('keeps records per account and gives them back by trx_id', async () => {
      const { cache } = await open();
      await cache.putRecords('demo', [cdr('a'), cdr('b', { to_address: '819000000001' })], T0, T0 + 1000);
      expect(await cache.getRecord('demo', 'b')).toEqual({
        cdr: cdr('b', { to_address: '819000000001' }),
        fetchedAt: T0,
        expiresAt: T0 + 1000,
      });
      expect(await cache.getRecord('fuji', 'b')).toBeNull();
      expect(await cache.getRecord('demo', 'c')).toBeNull();
      await cache.putRecords('demo', [], T0, T0);
    });

    it("finds every record of a stored page by trx_id, for that page's account only, without a second copy of the record", async () => {
      const { cache, db } = await open();
      const body = resultPageSchema.parse(
        samplePage([sampleCdr({ trx_id: 'r1' }), sampleCdr({ trx_id: 'r2', to_address: '819000000002' })]),
      );
      await cache.putPage('demo', page(1, { body }));
      expect(await cache.getRecord('demo', 'r2')).toEqual({
        cdr: body._embedded.cdrs[1],
        fetchedAt: T0,
        expiresAt: T0 + 120_000,
      });
      expect(await cache.getRecord('fuji', 'r2')).toBeNull();
      const row = await db
        .selectFrom('cache_records')
        .select(['body', 'page_no'])
        .where('trx_id', '=', 'r2')
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ body: '', page_no: 1 });
    });

    it('stores a page without its records when asked (an export’s), and indexes the records of many pages at once later', async () => {
      const { cache } = await open();
      const bodyOf = (n: number) =>
        resultPageSchema.parse(
          samplePage([sampleCdr({ trx_id: `a${n}` }), sampleCdr({ trx_id: `b${n}` })], { page: n }),
        );
      const pages = [1, 2, 3].map((n) => page(n, { body: bodyOf(n) }));
      for (const p of pages) await cache.putPage('demo', p, { indexRecords: false });
      expect(await cache.getPage('demo', 'q', 'desc', 2)).toMatchObject({ page: 2 });
      expect(await cache.getRecord('demo', 'b2')).toBeNull();
      await cache.indexPageRecords('demo', pages);
      expect(await cache.getRecord('demo', 'b2')).toEqual({
        cdr: pages[1]!.body._embedded.cdrs[1],
        fetchedAt: T0,
        expiresAt: T0 + 120_000,
      });
      expect(await cache.getRecord('demo', 'a3')).toMatchObject({ cdr: { trx_id: 'a3' } });
      expect(await cache.getRecord('fuji', 'a3')).toBeNull();
    });

    it('finds a record on the page fetched last, and misses it (one call later) once that page no longer holds it', async () => {
      const { cache } = await open();
      const first = resultPageSchema.parse(samplePage([sampleCdr({ trx_id: 'moving', delivery_status: 'ACCEPTD' })]));
      await cache.putPage('demo', page(1, { body: first }));
      const again = resultPageSchema.parse(
        samplePage([sampleCdr({ trx_id: 'moving', delivery_status: 'DELIVRD' })], { page: 2 }),
      );
      await cache.putPage('demo', page(2, { body: again, fetchedAt: T0 + 1000 }));
      expect((await cache.getRecord('demo', 'moving'))?.cdr.delivery_status).toBe('DELIVRD');
      // Page 2 fetched again without it (it moved to another page of recent data).
      await cache.putPage('demo', page(2, { fetchedAt: T0 + 2000 }));
      expect(await cache.getRecord('demo', 'moving')).toBeNull();
    });

    it('lets a record keep the longest life any page gave it, and the newest copy', async () => {
      const { cache } = await open();
      // A settled page gave it 30 days; a recent page fetched later gives it 2 minutes and a new status.
      await cache.putRecords('demo', [cdr('a', { delivery_status: 'ACCEPTD' })], T0, T0 + 30 * 86_400_000);
      await cache.putRecords('demo', [cdr('a', { delivery_status: 'DELIVRD' })], T0 + 1000, T0 + 121_000);
      const kept = await cache.getRecord('demo', 'a');
      expect(kept?.cdr.delivery_status).toBe('DELIVRD');
      expect(kept?.fetchedAt).toBe(T0 + 1000);
      expect(kept?.expiresAt).toBe(T0 + 30 * 86_400_000);
    });

    it('never lets an older fetch overwrite a newer record', async () => {
      const { cache } = await open();
      await cache.putRecords('demo', [cdr('a', { delivery_status: 'DELIVRD' })], T0 + 1000, T0 + 2000);
      await cache.putRecords('demo', [cdr('a', { delivery_status: 'ACCEPTD' })], T0, T0 + 5000);
      const kept = await cache.getRecord('demo', 'a');
      expect(kept).toMatchObject({ fetchedAt: T0 + 1000, expiresAt: T0 + 2000 });
      expect(kept?.cdr.delivery_status).toBe('DELIVRD');
    });

    it('stores a page that carries one record twice (the later copy wins) and many records at once', async () => {
      const { cache } = await open();
      await cache.putRecords('demo', [cdr('a', { ref: 'first' }), cdr('a', { ref: 'second' })], T0, T0 + 1000);
      expect((await cache.getRecord('demo', 'a'))?.cdr.ref).toBe('second');
      const many = Array.from({ length: 1001 }, (_, i) => cdr(`m${i}`));
      await cache.putRecords('demo', many, T0, T0 + 1000);
      expect((await cache.getRecord('demo', 'm1000'))?.cdr.trx_id).toBe('m1000');
    });

    it('drops what expired before the cut', async () => {
      const { cache } = await open();
      await cache.putPage('demo', page(1, { expiresAt: T0 - 1 }));
      await cache.putPage('demo', page(2, { expiresAt: T0 }));
      await cache.putRecords('demo', [cdr('old')], T0 - 10, T0 - 1);
      await cache.putRecords('demo', [cdr('new')], T0 - 10, T0);
      await cache.prune(T0);
      expect(await cache.getPage('demo', 'q', 'desc', 1)).toBeNull();
      expect(await cache.getPage('demo', 'q', 'desc', 2)).not.toBeNull();
      expect(await cache.getRecord('demo', 'old')).toBeNull();
      expect(await cache.getRecord('demo', 'new')).not.toBeNull();
    });
  });
});
