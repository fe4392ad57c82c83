import { describe, expect, it } from 'vitest';
import { SEARCH_MAX_RANGE_MS as MAX_RANGE_MS } from './query';
import { translate } from '../i18n/translate';
import { inSortOrder, joinRanges, pageFault, pageIsWhole, pagesFor, splitForDepth, splitRange } from './ranges';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);

describe('splitRange', () => {
  it('keeps a range within 31 days whole', () => {
    expect(splitRange(T0, T0 + 31 * DAY)).toEqual([{ from: T0, to: T0 + 31 * DAY }]);
  });

  it('cuts a longer range into consecutive 31-day windows that share their boundaries', () => {
    const w = splitRange(T0, T0 + 90 * DAY);
    expect(w).toEqual([
      { from: T0, to: T0 + 31 * DAY },
      { from: T0 + 31 * DAY, to: T0 + 62 * DAY },
      { from: T0 + 62 * DAY, to: T0 + 90 * DAY },
    ]);
    for (const x of w) expect(x.to - x.from).toBeLessThanOrEqual(MAX_RANGE_MS);
  });

  it('covers the whole range with no gap, for any length', () => {
    for (const days of [1, 31, 32, 62, 63, 200, 366]) {
      const w = splitRange(T0, T0 + days * DAY + 1000);
      expect(w[0]!.from).toBe(T0);
      expect(w.at(-1)!.to).toBe(T0 + days * DAY + 1000);
      for (let i = 1; i < w.length; i++) expect(w[i]!.from).toBe(w[i - 1]!.to);
    }
  });

  it('gives nothing for an empty range', () => {
    expect(splitRange(T0, T0)).toEqual([]);
  });
});

describe('splitForDepth', () => {
  const reach = 100_000;

  it('leaves a window the upstream can page through alone', () => {
    expect(splitForDepth({ from: T0, to: T0 + DAY }, reach, reach)).toEqual([{ from: T0, to: T0 + DAY }]);
  });

  it('cuts a deeper window into equal whole-second spans sized for 80% of the reach', () => {
    const parts = splitForDepth({ from: T0, to: T0 + 30 * DAY }, 250_000, reach)!;
    expect(parts).toHaveLength(4);
    expect(parts[0]!.from).toBe(T0);
    expect(parts.at(-1)!.to).toBe(T0 + 30 * DAY);
    for (const p of parts) expect(p.from % 1000).toBe(0);
  });

  it('always cuts in at least two', () => {
    expect(splitForDepth({ from: T0, to: T0 + DAY }, reach + 1, reach)).toHaveLength(2);
  });

  it('cannot cut a window shorter than two seconds', () => {
    expect(splitForDepth({ from: T0, to: T0 + 1000 }, reach * 3, reach)).toBeNull();
  });
});

describe('inSortOrder', () => {
  const a = { from: T0, to: T0 + DAY };
  const b = { from: T0 + DAY, to: T0 + 2 * DAY };
  it('reads the oldest window first for asc and the newest first for desc', () => {
    expect(inSortOrder([b, a], 'asc')).toEqual([a, b]);
    expect(inSortOrder([a, b], 'desc')).toEqual([b, a]);
  });
});

describe('pagesFor', () => {
  it('counts pages, never past the upstream last page', () => {
    expect(pagesFor(0, 100, 1000)).toBe(0);
    expect(pagesFor(1, 100, 1000)).toBe(1);
    expect(pagesFor(250, 100, 1000)).toBe(3);
    expect(pagesFor(150_000, 100, 1000)).toBe(1000);
  });
});

describe('joinRanges', () => {
  const D0 = Date.parse('2026-11-01T00:00:00Z');
  it('join ranges that touch or overlap, in order, and keep apart those with a gap', () => {
    const day = (d: number) => ({ from: D0 + d * 86_400_000, to: D0 + (d + 1) * 86_400_000 - 1 });
    expect(joinRanges([day(2), day(0), day(1)])).toEqual([{ from: day(0).from, to: day(2).to }]);
    expect(joinRanges([day(0), day(2)])).toEqual([day(0), day(2)]);
    expect(
      joinRanges([
        { from: 0, to: 10 },
        { from: 5, to: 7 },
        { from: 11, to: 12 },
      ]),
    ).toEqual([{ from: 0, to: 12 }]);
    expect(joinRanges([])).toEqual([]);
  });
});

describe('pageIsWhole', () => {
  const page = (total: number, ids: string[], at = '2026-11-01T09:00:00.000+0000') => ({
    _embedded: { total_found: total, cdrs: ids.map((trx_id) => ({ trx_id, date_received: at })) },
  });
  const ids = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `t${from + i}`);
  it('is a full page, or the rest on the last one, each record once', () => {
    expect(pageIsWhole(page(250, ids(100)), 1, 100)).toBe(true);
    expect(pageIsWhole(page(250, ids(50, 200)), 3, 100)).toBe(true);
    expect(pageIsWhole(page(0, []), 1, 100)).toBe(true);
    expect(pageIsWhole(page(250, ids(97)), 1, 100)).toBe(false);
    expect(pageIsWhole(page(250, ids(40, 200)), 3, 100)).toBe(false);
    expect(pageIsWhole(page(250, [...ids(99), 't0']), 1, 100)).toBe(false);
    expect(pageIsWhole(page(250, ids(100)), 4, 100)).toBe(false);
  });

  it('has every record placeable in time: one whose received time cannot be read is not kept as part of a whole', () => {
    expect(pageIsWhole(page(2, ids(2), 'garbage'), 1, 100)).toBe(false);
    expect(translate('en', pageFault(page(2, ids(2), ''), 1, 100)!)).toBe(
      "the upstream's page 1 held 2 records whose received time cannot be read",
    );
  });
});
