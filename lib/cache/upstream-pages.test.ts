/**
 * The upstream's pages behind a slice of positions, when UPSTREAM_PAGE_SIZE is smaller than the
 * dashboard's page: never a page past the upstream's 1000th (it would refuse it, and the call
 * would be spent), and a slice entirely past it refused with no call.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Cdr, ResultPage } from '../cdr/schema';
import { ProblemError } from '../http/problem';
import type { UpstreamBase } from '../query/wire';
import type { CachedPage, PageCacheStore } from './page-cache-store';
import { cachePolicy } from './cache-policy';
import { UpstreamPages } from './upstream-pages';

const U = 50;
const TOTAL = 80_000; // more than the upstream reaches with pages of 50 (50,000)
const base: UpstreamBase = { params: {}, key: 'k' } as unknown as UpstreamBase;
const account = { apiKey: 'demo', enterpriseId: null, credentials: async () => ({ apiKey: 'demo', secret: 's' }) };

function pages(initialTotal = TOTAL) {
  let total = initialTotal;
  /** Records the next answer leaves out (an upstream whose pages and count disagree). */
  let short = 0;
  const stored = new Map<number, CachedPage>();
  /** The store refuses writes (a database restarting), reads of what it holds still answer. */
  let writesFail = false;
  const cache = {
    getPage: async (_a: string, _k: string, _s: string, page: number) => stored.get(page) ?? null,
    anyPage: async () => [...stored.values()][0] ?? null,
    putPage: async (_a: string, p: CachedPage) => {
      if (writesFail) throw new Error('the store cannot be reached');
      stored.set(p.page, p);
    },
  } as Partial<PageCacheStore> as PageCacheStore;
  const asked: number[] = [];
  const gateway = {
    query: vi.fn(async (_a: unknown, req: { page: number }) => {
      asked.push(req.page);
      const length = Math.max(0, Math.min(U, total - (req.page - 1) * U) - short);
      short = 0;
      const cdrs = Array.from(
        { length },
        (_, i) =>
          ({ trx_id: `${(req.page - 1) * U + i}`, date_received: '2026-11-01T09:00:00.000+0000' }) as unknown as Cdr,
      );
      return {
        page: {
          page: req.page,
          page_size: U,
          _links: {},
          _embedded: { total_found: total, cdrs },
        } as unknown as ResultPage,
        calls: 1,
      };
    }),
  };
  const policy = cachePolicy({
    CACHE_SETTLED_AFTER_HOURS: 72,
    CACHE_SETTLED_TTL_HOURS: 24,
    CACHE_RECENT_TTL_SECONDS: 120,
  });
  let clock = 1_000_000;
  const upstream = new UpstreamPages({ gateway, cache, policy, pageSize: U, now: () => (clock += 1) });
  /** Records arrive upstream: the result's size moves. */
  const grow = (by: number) => void (total += by);
  return {
    upstream,
    asked,
    grow,
    shortNext: (n: number) => void (short = n),
    failWrites: (fail: boolean) => void (writesFail = fail),
  };
}

describe('a slice near the upstream’s last page', () => {
  it('asks for no page past the 1000th, and answers the positions it reaches', async () => {
    const { upstream, asked } = pages();
    // Positions 49,950–50,049 (a page of 100): upstream pages 1000 and 1001, of which 1000 exists.
    const slice = await upstream.slice(account, base, 0, 'asc', 49_950, 50_050, 'interactive');
    expect(asked).toEqual([1000]);
    expect(slice.records.map((r) => r.trx_id)).toEqual(Array.from({ length: 50 }, (_, i) => `${49_950 + i}`));
    expect(slice.total).toBe(TOTAL);
  });

  it('refuses a slice wholly past it, with no call', async () => {
    const { upstream, asked } = pages();
    const refused = await upstream
      .slice(account, base, 0, 'asc', 50_000, 50_100, 'interactive')
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ProblemError);
    expect((refused as ProblemError).problem.type).toBe('/problems/beyond-reach');
    expect(asked).toEqual([]);
    expect(await upstream.cached.callsFor('demo', base, 0, 'asc', 50_000, 50_100)).toEqual({
      calls: 0,
      oldestFetchedAt: null,
    });
    expect((await upstream.cached.callsFor('demo', base, 0, 'asc', 49_950, 50_050)).calls).toBe(1);
  });

  it('asks for no page past the end of a small result, and answers a page past it empty with no call', async () => {
    const { upstream, asked } = pages(1);
    // A page of 100 over pages of 50: the first tells there is one record; the second is not asked.
    const first = await upstream.slice(account, base, 0, 'asc', 0, 100, 'interactive');
    expect(asked).toEqual([1]);
    expect([first.total, first.records.length, first.calls]).toEqual([1, 1, 1]);
    // Far past the end, past the upstream's reach too: empty, no call (not "beyond reach").
    const far = await upstream.slice(account, base, 0, 'asc', 60_000, 60_100, 'interactive');
    expect([far.total, far.records.length, far.calls]).toEqual([1, 0, 0]);
    expect(asked).toEqual([1]);
  });

  it('does not join pages read at different moments that disagree on the result’s size', async () => {
    const { upstream, asked, grow } = pages(200);
    // Page 1 of 50 read first, then records arrive; a page of 100 needs pages 1 and 2.
    await upstream.slice(account, base, Date.now(), 'asc', 0, 50, 'interactive');
    grow(17);
    const page = await upstream.slice(account, base, Date.now(), 'asc', 0, 100, 'interactive');
    // Page 2 tells 217; page 1 (which said 200) is read again rather than joined.
    expect(asked).toEqual([1, 2, 1]);
    expect(page.total).toBe(217);
    expect(new Set(page.records.map((r) => r.trx_id)).size).toBe(100);
  });

  it('shows a page short of its count once and does not keep it: asked again, it is read again', async () => {
    const { upstream, asked, shortNext } = pages(200);
    shortNext(3);
    const first = await upstream.slice(account, base, 0, 'asc', 0, 50, 'interactive');
    expect([first.records.length, first.total, first.calls]).toEqual([47, 200, 1]);
    const again = await upstream.slice(account, base, 0, 'asc', 0, 50, 'interactive');
    expect([again.records.length, again.calls]).toEqual([50, 1]);
    expect(asked).toEqual([1, 1]);
    // Whole, it is kept: a third time costs nothing.
    expect((await upstream.slice(account, base, 0, 'asc', 0, 50, 'interactive')).calls).toBe(0);
  });

  it('answers with a page it paid for even when the page cannot be kept', async () => {
    const { upstream, asked, failWrites } = pages(200);
    failWrites(true);
    const first = await upstream.slice(account, base, 0, 'asc', 0, 50, 'interactive');
    expect([first.records.length, first.total, first.calls]).toEqual([50, 200, 1]);
    // Not kept, it is read again next time; kept then, it is free after.
    failWrites(false);
    expect((await upstream.slice(account, base, 0, 'asc', 0, 50, 'interactive')).calls).toBe(1);
    expect((await upstream.slice(account, base, 0, 'asc', 0, 50, 'interactive')).calls).toBe(0);
    expect(asked).toEqual([1, 1]);
  });
});
