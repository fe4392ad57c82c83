import { describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../time/units';
import { planUpstream, windowsOf, wholeCalls, type PendingRow, type WindowSize } from './plan-upstream';

const T0 = Date.UTC(2026, 10, 1);
const row = (value: string, from: number, to: number): PendingRow => ({ value, pieces: [{ from, to }] });
const exact = (records: number, cachedPages = 0): WindowSize => ({ records, known: 'exact', cachedPages });
const unknown: WindowSize = { records: null, known: 'unknown', cachedPages: 0 };

describe('the windows a plan reads', () => {
  it('joins pieces that overlap or lie within an hour, and cuts at 31 days', () => {
    const rows = [
      row('a', T0, T0 + 10 * MINUTE_MS),
      row('b', T0 + 40 * MINUTE_MS, T0 + 50 * MINUTE_MS),
      row('c', T0 + 5 * HOUR_MS, T0 + 6 * HOUR_MS),
    ];
    expect(windowsOf(rows)).toEqual([
      { from: T0, to: T0 + 50 * MINUTE_MS },
      { from: T0 + 5 * HOUR_MS, to: T0 + 6 * HOUR_MS },
    ]);
    const long = windowsOf([row('a', T0, T0 + 40 * DAY_MS)]);
    expect(long.map((w) => (w.to - w.from) / DAY_MS)).toEqual([31, 9]);
  });

  it('counts a window deeper than 1000 pages as its pages and a first page per narrower window', () => {
    expect(wholeCalls(exact(14_000), { from: T0, to: T0 + 14 * DAY_MS }, 100)).toBe(140);
    expect(wholeCalls(exact(14_000, 3), { from: T0, to: T0 + 14 * DAY_MS }, 100)).toBe(137);
    expect(wholeCalls(exact(150_000), { from: T0, to: T0 + 14 * DAY_MS }, 100)).toBe(1500 + 2);
    expect(wholeCalls(unknown, { from: T0, to: T0 + DAY_MS }, 100)).toBeNull();
  });
});

describe('choosing how to ask', () => {
  const fortnight = { from: T0, to: T0 + 14 * DAY_MS };
  const ids = (n: number) => Array.from({ length: n }, (_, i) => row(`id${i}`, fortnight.from, fortnight.to));

  it('reads a window whole when its pages cost less than one lookup per trx_id', () => {
    const plan = planUpstream('trx_id', ids(10_000), [fortnight], [exact(14_000)], 100);
    expect(plan.tasks).toEqual([expect.objectContaining({ kind: 'window', from: fortnight.from, to: fortnight.to })]);
    expect([plan.calls, plan.callsAtMost, plan.callsKnown]).toEqual([140, 140, 'exact']);
    expect(plan.windows[0]).toMatchObject({ strategy: 'window', rows: 10_000, records: 14_000, calls: 140 });
  });

  it('looks up a few ids rather than read a large window, each id once however many rows name it', () => {
    const rows = [...ids(3), row('id0', fortnight.from, fortnight.to)];
    const plan = planUpstream('trx_id', rows, [fortnight], [exact(14_000)], 100);
    expect(plan.tasks.map((t) => [t.kind, t.value])).toEqual([
      ['lookup', 'id0'],
      ['lookup', 'id1'],
      ['lookup', 'id2'],
    ]);
    expect([plan.calls, plan.windows[0]!.strategy]).toEqual([3, 'lookup']);
  });

  it('asks each number alone when that is cheaper, one query per number and 31 days', () => {
    const rows = [
      row('819011112222', T0, T0 + HOUR_MS),
      row('819011112222', T0 + 3 * DAY_MS, T0 + 3 * DAY_MS + HOUR_MS),
      row('819033334444', T0 + 2 * DAY_MS, T0 + 2 * DAY_MS + HOUR_MS),
    ];
    const windows = windowsOf(rows);
    expect(windows).toHaveLength(3);
    const plan = planUpstream(
      'da',
      rows,
      windows,
      windows.map(() => exact(500)),
      100,
    );
    expect(plan.tasks.map((t) => [t.kind, t.param, t.value, t.from, t.to])).toEqual([
      ['filter', 'da', '819011112222', T0, T0 + 3 * DAY_MS + HOUR_MS],
      ['filter', 'da', '819033334444', T0 + 2 * DAY_MS, T0 + 2 * DAY_MS + HOUR_MS],
    ]);
    expect(plan.calls).toBe(2);
    expect(plan.windows.reduce((s, w) => s + w.calls, 0)).toBe(2);
  });

  it('reads a window of unknown size whole from its first page when two values or more are in it, and says the calls are a lower bound', () => {
    const plan = planUpstream('trx_id', ids(50), [fortnight], [unknown], 100);
    expect(plan.tasks.map((t) => t.kind)).toEqual(['window']);
    expect([plan.calls, plan.callsAtMost, plan.callsKnown]).toEqual([1, 51, 'at-least']);
    const one = planUpstream('trx_id', ids(1), [fortnight], [unknown], 100);
    expect([one.tasks.map((t) => t.kind), one.calls, one.callsKnown]).toEqual([['lookup'], 1, 'exact']);
  });

  it('takes an estimated size as an estimate, bounded by the first page and the other way', () => {
    const plan = planUpstream(
      'trx_id',
      ids(500),
      [fortnight],
      [{ records: 14_000, known: 'estimate', cachedPages: 0 }],
      100,
    );
    expect([plan.calls, plan.callsAtMost, plan.callsKnown]).toEqual([140, 501, 'estimate']);
  });

  it('costs nothing for a window whose every page the cache holds', () => {
    const plan = planUpstream('trx_id', ids(5), [fortnight], [exact(250, 3)], 100);
    expect([plan.tasks.map((t) => t.kind), plan.calls]).toEqual([['window'], 0]);
  });
});
