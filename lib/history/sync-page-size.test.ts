/**
 * The page size background reads ask for: what an answer says it was served at, and what is kept
 * when the upstream answers, serves less, or refuses (./sync-page-size.ts).
 */
import { describe, expect, it } from 'vitest';
import { createLogger } from '../log';
import { effectivePageSize, FALLBACK_PAGE_SIZE, keepsUpWith, PageSizes, searchPageSize } from './sync-page-size';
import type { PageSizeStore, StoredPageSize } from './store/page-size-store';

/** An answer of `held` records, page `page`, out of `total`, saying `pageSize` and with its last page at `last`. */
function answer(o: { held: number; total: number; pageSize?: number; page?: number; last?: number | null }) {
  const cdrs = Array.from({ length: o.held }, (_, i) => ({ trx_id: `t${i}` }));
  const last = o.last === undefined ? Math.max(1, Math.ceil(o.total / (o.pageSize ?? 100))) : o.last;
  return {
    page_size: o.pageSize ?? NaN,
    page: o.page ?? 1,
    _links:
      last === null
        ? {}
        : { last: { href: `/cdr/v1/report/query/sms/transaction-history/mt?page=${last}&page-size=9` } },
    _embedded: { total_found: o.total, cdrs },
  } as unknown as Parameters<typeof effectivePageSize>[1];
}

describe('the size an answer was served at', () => {
  it('is the size asked when the upstream serves it', () => {
    expect(effectivePageSize(1000, answer({ held: 1000, total: 5000, pageSize: 1000 }))).toBe(1000);
    // A result smaller than a page says nothing against the size asked.
    expect(effectivePageSize(1000, answer({ held: 240, total: 240, pageSize: 1000 }))).toBe(1000);
    expect(effectivePageSize(1000, answer({ held: 0, total: 0, pageSize: 1000 }))).toBe(1000);
  });

  it('is what the upstream says and its links agree with, when it serves less than asked', () => {
    // Clamped, and saying so.
    expect(effectivePageSize(1000, answer({ held: 500, total: 5000, pageSize: 500 }))).toBe(500);
    // Clamped silently: page_size repeats the size asked, the links count pages of 100.
    expect(effectivePageSize(1000, answer({ held: 100, total: 5000, pageSize: 1000, last: 50 }))).toBe(100);
    // Nothing but a full page to go by.
    expect(effectivePageSize(1000, answer({ held: 250, total: 5000, last: null }))).toBe(250);
  });

  it('is not a smaller size when a page comes short of its own count (a fault the sync reads again later)', () => {
    expect(effectivePageSize(100, answer({ held: 97, total: 864, pageSize: 100 }))).toBe(100);
    expect(effectivePageSize(100, answer({ held: 97, total: 5000, pageSize: 100, page: 3 }))).toBe(100);
    // The last page holds what is left.
    expect(effectivePageSize(100, answer({ held: 64, total: 864, pageSize: 100, page: 9 }))).toBe(100);
  });

  it('never exceeds the size asked, whatever the answer says', () => {
    expect(effectivePageSize(100, answer({ held: 100, total: 5000, pageSize: 1000, last: 5 }))).toBe(100);
  });
});

function memoryStore(): PageSizeStore & { row: StoredPageSize | null } {
  const store = {
    row: null as StoredPageSize | null,
    get: async () => store.row,
    put: async (s: StoredPageSize) => void (store.row = s),
  };
  return store;
}

const quiet = createLogger({ level: 'silent' });

describe('the page size kept', () => {
  it('is asked with the probe’s size until an answer decides it, then kept', async () => {
    const store = memoryStore();
    const sizes = new PageSizes({
      store,
      config: { UPSTREAM_PAGE_SIZE: 'auto', UPSTREAM_PAGE_SIZE_PROBE: 1000 },
      log: quiet,
      now: () => 7,
    });
    expect(await sizes.state()).toEqual({
      size: FALLBACK_PAGE_SIZE,
      source: 'unprobed',
      decidedAt: null,
      refused: null,
    });
    expect(await sizes.toAsk()).toBe(1000);
    expect(await sizes.served(1000, answer({ held: 1000, total: 4000, pageSize: 1000 }))).toBe(1000);
    expect(await sizes.state()).toEqual({ size: 1000, source: 'probed', decidedAt: 7, refused: null });
    expect(await sizes.toAsk()).toBe(1000);
    // Later the upstream serves less: followed down, and kept.
    expect(await sizes.served(1000, answer({ held: 500, total: 4000, pageSize: 500 }))).toBe(500);
    expect((await sizes.state()).size).toBe(500);
  });

  it('falls back to 100 when the upstream refuses the size, once, and says which size and status', async () => {
    const store = memoryStore();
    const sizes = new PageSizes({
      store,
      config: { UPSTREAM_PAGE_SIZE: 'auto', UPSTREAM_PAGE_SIZE_PROBE: 1000 },
      log: quiet,
      now: () => 9,
    });
    expect(await sizes.refused(1000, 422)).toBe(100);
    expect(await sizes.state()).toEqual({
      size: 100,
      source: 'fallback',
      decidedAt: 9,
      refused: { asked: 1000, status: 422 },
    });
    expect(await sizes.toAsk()).toBe(100);
    // A refusal at 100, or of another kind, is not about the page size.
    expect(await sizes.refused(100, 400)).toBeNull();
    expect(await sizes.refused(1000, 403)).toBeNull();
    expect(await sizes.refused(1000, undefined)).toBeNull();
  });

  it('is the number UPSTREAM_PAGE_SIZE pins, whatever the upstream answers', async () => {
    const store = memoryStore();
    const sizes = new PageSizes({
      store,
      config: { UPSTREAM_PAGE_SIZE: 250, UPSTREAM_PAGE_SIZE_PROBE: 1000 },
      log: quiet,
      now: () => 0,
    });
    expect(await sizes.toAsk()).toBe(250);
    expect(await sizes.refused(250, 400)).toBeNull();
    expect(await sizes.served(250, answer({ held: 100, total: 900, pageSize: 100 }))).toBe(100);
    expect(store.row).toBeNull();
    expect((await sizes.state()).source).toBe('configured');
  });

  it('leaves people’s searches at 100 a page, or less when pinned lower', () => {
    expect(searchPageSize({ UPSTREAM_PAGE_SIZE: 'auto' })).toBe(100);
    expect(searchPageSize({ UPSTREAM_PAGE_SIZE: 1000 })).toBe(100);
    expect(searchPageSize({ UPSTREAM_PAGE_SIZE: 50 })).toBe(50);
  });

  it('says how many messages a day the sync keeps up with: its calls a day at the tightest window, times the page size', () => {
    // The seed's limits: 3/min, 10/h, 100/day, the sync's share 0.6 and 3 calls kept for people.
    expect(keepsUpWith({ perMinute: 1, perHour: 6, perDay: 60 }, 1000)).toBe(60_000);
    expect(keepsUpWith({ perMinute: 1, perHour: 6, perDay: 60 }, 100)).toBe(6_000);
    expect(keepsUpWith({ perMinute: 1, perHour: 2, perDay: 60 }, 100)).toBe(4_800);
  });
});
