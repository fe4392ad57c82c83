/**
 * Copying one day page by page: which page comes next, when the day is complete, and when it has a
 * problem instead — never a day with no page left to read that is not complete either (the copy
 * would come back to it at once, for ever, and never reach the older days).
 */
import type { Words } from '../i18n/message';
import { translate } from '../i18n/translate';
import { describe, expect, it } from 'vitest';
import { applyPage, inDay, isComplete, nextPage, startDay, verifyHeld, type DayProgress } from './sync-day-progress';

const DAY = '2026-11-01';
const PAGE = 100;

/** Reads the pages the upstream sends (`sizes`: records on each page), as the copy does; answers the progress. */
function read(total: number, sizes: number[]): DayProgress {
  const p = startDay(DAY);
  for (const records of sizes) {
    const next = nextPage(p);
    if (!next) throw new Error('a page was sent after the last one was read');
    applyPage(p, next.window.id, next.page, total, records, 0, PAGE);
  }
  return p;
}

/** A day's problem as an English reader reads it (it is stored as Words). */
const en = (problem: Words | null) => (problem === null ? null : translate('en', problem));

describe('copying a day', () => {
  it('is complete once every page came as counted', () => {
    const p = read(250, [100, 100]);
    expect(nextPage(p)).toMatchObject({ page: 3 });
    expect(isComplete(p)).toBe(false);
    applyPage(p, 1, 3, 250, 50, 0, PAGE);
    expect([nextPage(p), isComplete(p), p.problem]).toEqual([null, true, null]);
  });

  it('is complete after one page when the day has no record', () => {
    const p = read(0, [0]);
    expect([nextPage(p), isComplete(p), p.problem]).toEqual([null, true, null]);
  });

  it('has a problem, not a page to read again, when the pages bring fewer records than counted', () => {
    const p = read(250, [100, 100, 40]);
    expect(nextPage(p)).toBeNull();
    expect(isComplete(p)).toBe(false);
    expect(en(p.problem)).toBe(
      'The upstream counted 250 records for 2026-11-01 00:00:00 to 2026-11-02 00:00:00 UTC but sent 240 in 3 of 3 pages; the day is read again later.',
    );
    expect(translate('ja', p.problem!)).toBe(
      '上流は2026-11-01 00:00:00〜2026-11-02 00:00:00(UTC)の件数を250件としましたが、3ページ中3ページで240件しか届きませんでした。この日は後で読み直します。',
    );
  });

  it('has a problem when a page before the last comes empty', () => {
    const p = read(250, [100, 0]);
    expect(nextPage(p)).toBeNull();
    expect(en(p.problem)).toMatch(/counted 250 records .* but sent 100 in 2 of 3 pages/);
  });

  it('has a problem when the pages are smaller than asked for (a capped page size)', () => {
    const p = read(250, [50, 50, 50]);
    expect([nextPage(p), isComplete(p)]).toEqual([null, false]);
    expect(en(p.problem)).toMatch(/sent 150 in 3 of 3 pages/);
  });

  it('reads a window again from its first page when its count moves, and gives up on a count that keeps moving', () => {
    const p = read(250, [100]);
    applyPage(p, 1, 2, 251, 100, 0, PAGE);
    expect(nextPage(p)).toMatchObject({ page: 1 });
    expect(p.restarts).toBe(1);
    // Learnt again from page 1, moved again at page 2: three more times is one too many.
    for (let i = 0; i < 3; i++) {
      applyPage(p, 1, 1, 260 + 2 * i, 100, 0, PAGE);
      applyPage(p, 1, 2, 261 + 2 * i, 100, 0, PAGE);
    }
    expect(p.restarts).toBe(4);
    expect(en(p.problem)).toMatch(/kept changing \(264 then 265\)/);
  });

  it('reads a window again when its count drops too', () => {
    const p = read(250, [100]);
    applyPage(p, 1, 2, 245, 100, 0, PAGE);
    expect(nextPage(p)).toMatchObject({ page: 1 });
    expect(p.restarts).toBe(1);
  });

  it('holds a record received at the day’s first instant, not one at the next day’s', () => {
    const start = Date.parse(`${DAY}T00:00:00Z`);
    expect(inDay(start, start)).toBe(true);
    expect(inDay(start, start + 86_400_000 - 1)).toBe(true);
    expect(inDay(start, start + 86_400_000)).toBe(false);
    expect(inDay(start, start - 1)).toBe(false);
  });

  it('forgets the upstream’s failures in a row once a page is read', () => {
    const p = startDay(DAY);
    p.failures = 3;
    applyPage(p, 1, 1, 250, 100, 0, PAGE);
    expect(p.failures).toBe(0);
  });

  it('is checked against the records held, counted per window as the upstream counts them', async () => {
    // Split in two windows sharing their instant at noon: the upstream counts a record there in both.
    const p = startDay(DAY);
    const noon = p.windows[0]!.from + 12 * 3_600_000;
    p.windows = [
      {
        id: 1,
        from: p.windows[0]!.from,
        to: noon,
        state: 'done',
        total: 100,
        pagesDone: 1,
        pagesTotal: 1,
        received: 100,
      },
      { id: 2, from: noon, to: p.windows[0]!.to, state: 'done', total: 51, pagesDone: 1, pagesTotal: 1, received: 51 },
    ];
    const held = (counts: Record<number, number>) => async (from: number) => counts[from === noon ? 2 : 1]!;
    expect(await verifyHeld(p, held({ 1: 100, 2: 51 }))).toBeNull();
    const short = await verifyHeld(p, held({ 1: 99, 2: 51 }));
    expect(en(short?.problem ?? null)).toBe(
      'The upstream counted 151 records for this day but 150 different ones with a readable received time came (a record sent twice and another not at all?); the day is read again later.',
    );
  });
});
