import { describe, expect, it } from 'vitest';
import { callsStillNeeded, typicalDayCalls, type DayCalls } from './calls-needed';
import { applyPage, startDay } from './sync-day-progress';

const PAGE = 100;

/** A day whose first `pages` pages of `total` records were read. */
function begun(day: string, total: number, pages: number): DayCalls {
  const progress = startDay(day);
  for (let page = 1; page <= pages; page++)
    applyPage(progress, 1, page, total, Math.min(PAGE, total - (page - 1) * PAGE), 0, PAGE);
  return { state: 'syncing', progress, calls: pages };
}

function complete(day: string, calls: number): DayCalls {
  return { ...begun(day, calls * PAGE, calls), state: 'complete' };
}

describe('the calls a copy still needs', () => {
  it('is not known before the upstream has told the size of any day', () => {
    expect(callsStillNeeded(['2026-11-01', '2026-11-02'], new Map(), null)).toBeNull();
    expect(typicalDayCalls([], PAGE)).toBeNull();
  });

  it('counts a day being read by its own pages, and a day not begun like it', () => {
    // 1,550 records: 16 pages, 3 read.
    const stored = new Map([['2026-11-02', begun('2026-11-02', 1_550, 3)]]);
    expect(callsStillNeeded(['2026-11-01', '2026-11-02'], stored, typicalDayCalls([...stored.values()], PAGE))).toBe(
      16 + 13,
    );
    expect(typicalDayCalls([...stored.values()], PAGE)).toBe(16);
  });

  it('takes the complete days’ average for a day not begun, and nothing for a complete day', () => {
    const stored = new Map([
      ['2026-11-03', complete('2026-11-03', 10)],
      ['2026-11-04', complete('2026-11-04', 20)],
    ]);
    expect(callsStillNeeded(['2026-11-01', '2026-11-02'], stored, typicalDayCalls([...stored.values()], PAGE))).toBe(
      30,
    );
    expect(typicalDayCalls([...stored.values()], PAGE)).toBe(15);
    expect(callsStillNeeded([], stored, typicalDayCalls([...stored.values()], PAGE))).toBe(0);
  });

  it('counts a day that met a problem again in full', () => {
    const troubled = begun('2026-11-02', 500, 2);
    troubled.progress.problem = 'the count kept changing';
    const stored = new Map([
      ['2026-11-02', troubled],
      ['2026-11-03', complete('2026-11-03', 7)],
    ]);
    expect(callsStillNeeded(['2026-11-02'], stored, typicalDayCalls([...stored.values()], PAGE))).toBe(7);
  });
});
