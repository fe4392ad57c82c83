/**
 * Insights' store on both backends: the hourly rollups always equal the records (kept in the same
 * transaction, a record stored twice counted once, dropped with the records), the rollups and the
 * records give the same sums, and the latencies come back exact and in order.
 */
import { describe, expect, it } from 'vitest';
import { forEachBackend } from '@/tests/support/backends';
import type { LocalSearch } from '../history/store/history-search';
import type { HistoryDay, HistoryRecordRow } from '../history/store/history-store';
import { daySegments, zoneDayIndex } from '../time/zone-days';
import { rollupsServe, splitByHours } from '../history/store/rollups';
import { breakdownsOf, planSources, type InsightsSearch, type InsightsSums } from './insights-store';

const H = 3_600_000;
const DAY0 = Date.parse('2026-11-01T00:00:00Z');
// (A scope key without NUL: PostgreSQL text cannot hold one — see lib/history/scope.ts.)
const SCOPE = 'demo|';

function row(i: number, over: Partial<HistoryRecordRow> = {}): HistoryRecordRow {
  const received = DAY0 + i * 7 * 60_000 + (i % 1000); // every 7 minutes, with milliseconds
  return {
    trx_id: `trx-${String(i).padStart(6, '0')}`,
    received_ms: received,
    day: new Date(received).toISOString().slice(0, 10),
    to_address: `8190${String(i).padStart(8, '0')}`,
    to_rev: '',
    from_address: i % 3 === 0 ? 'SakuraMart' : 'SakuraShop',
    status: i % 10 === 0 ? 'UNDELIV' : 'DELIVRD',
    network_code: i % 4 === 0 ? '44010' : '44020',
    network_name: i % 4 === 0 ? 'NTT docomo' : 'SoftBank',
    api_key: 'demo',
    api_key_name: 'Demo key',
    ref: '',
    enterprise_id: 'ent-sakura',
    delivery_method: 'API',
    dlr_error_code: i % 10 === 0 ? '001' : '000',
    parts: i % 5 === 0 ? 2 : 1,
    price_units: i % 7 === 0 ? null : 330_000_000 + i,
    currency: 'JPY',
    submitted_ms: received + 500,
    delivered_ms: i % 10 === 0 ? null : received + 500 + ((i * 7919) % 20_000),
    latency_ms: i % 10 === 0 ? null : (i * 7919) % 20_000,
    search_text: i % 3 === 0 ? 'sakuramart' : 'sakurashop',
    body: '{}',
    ...over,
  };
}

const day = (d: string): HistoryDay => ({
  day: d,
  state: 'complete',
  progress: {},
  records: 0,
  calls: 1,
  updatedAt: 0,
  completedAt: 0,
});

/** A search of whole and partial UTC/JST days of [from, to]. */
function search(
  from: number,
  to: number,
  zone: 'UTC' | 'JST' = 'UTC',
  where: LocalSearch['where'] = [],
  text?: string,
): InsightsSearch {
  return { scope: SCOPE, zone, where, ...(text ? { text } : {}), days: daySegments(from, to, zone) };
}

/** What the sums must be: the records of the range that pass `keep`, summed here. */
function expectedSums(rows: readonly HistoryRecordRow[], s: InsightsSearch, keep: (r: HistoryRecordRow) => boolean) {
  const inRange = rows.filter((r) => s.days.some((d) => r.received_ms >= d.from && r.received_ms <= d.to) && keep(r));
  const cells = inRange.map((r) => ({
    day: zoneDayIndex(r.received_ms, s.zone),
    status: r.status,
    network_code: r.network_code,
    network_name: r.network_name,
    from_address: r.from_address,
    api_key: r.api_key,
    api_key_name: r.api_key_name,
    dlr_error_code: r.dlr_error_code,
    currency: r.currency,
    records: 1,
    parts_sum: r.parts ?? 0,
    price_units: r.price_units ?? 0,
    priced: r.price_units === null ? 0 : 1,
  }));
  const hourly = new Map<string, { hour_ms: number; status: string; records: number }>();
  for (const r of inRange) {
    const hour_ms = Math.floor(r.received_ms / H) * H;
    const into =
      hourly.get(`${hour_ms} ${r.status}`) ??
      hourly.set(`${hour_ms} ${r.status}`, { hour_ms, status: r.status, records: 0 }).get(`${hour_ms} ${r.status}`)!;
    into.records += 1;
  }
  return {
    ...breakdownsOf(cells),
    latencies: inRange.filter((r) => r.latency_ms !== null).map((r) => r.latency_ms!),
    hourly: [...hourly.values()],
  };
}

/** Rows in one order, to compare answers whatever order SQL gave them in. */
const sorted = (rows: readonly object[]) => rows.map((r) => JSON.stringify(r)).sort();

describe('insights store helpers', () => {
  it('cut a range into whole hours and the ends', () => {
    expect(splitByHours({ from: DAY0 + 1800_000, to: DAY0 + 3 * H + 5 })).toEqual({
      hours: { from: DAY0 + H, to: DAY0 + 2 * H },
      edges: [
        { from: DAY0 + 1800_000, to: DAY0 + H - 1 },
        { from: DAY0 + 3 * H, to: DAY0 + 3 * H + 5 },
      ],
    });
    expect(splitByHours({ from: DAY0, to: DAY0 + H - 1 })).toEqual({ hours: { from: DAY0, to: DAY0 }, edges: [] });
    expect(splitByHours({ from: DAY0 + 10, to: DAY0 + 20 })).toEqual({
      hours: null,
      edges: [{ from: DAY0 + 10, to: DAY0 + 20 }],
    });
  });

  it('answer whole days from the daily rollups, whole hours from the hourly ones, the rest from the records', () => {
    const plan = planSources(search(DAY0 + 1800_000, DAY0 + 2 * 86_400_000 + 3 * H + 5));
    expect(plan.days).toEqual([zoneDayIndex(DAY0 + 86_400_000, 'UTC')]);
    expect(plan.hours).toEqual([
      { from: DAY0 + H, to: DAY0 + 23 * H },
      { from: DAY0 + 2 * 86_400_000, to: DAY0 + 2 * 86_400_000 + 2 * H },
    ]);
    expect(plan.records).toEqual([
      { from: DAY0 + 1800_000, to: DAY0 + H - 1 },
      { from: DAY0 + 2 * 86_400_000 + 3 * H, to: DAY0 + 2 * 86_400_000 + 3 * H + 5 },
    ]);
    const text = planSources(search(DAY0, DAY0 + 86_400_000 - 1, 'UTC', [], 'sakura'));
    expect(text).toEqual({ days: [], hours: [], records: [{ from: DAY0, to: DAY0 + 86_400_000 - 1 }] });
  });

  it('use the rollups only for filters they are kept by', () => {
    expect(rollupsServe({ where: [{ column: 'network_code', op: '=', value: '44010' }] })).toBe(true);
    expect(rollupsServe({ where: [{ column: 'to_address', op: '=', value: '81901234' }] })).toBe(false);
    expect(rollupsServe({ where: [{ column: 'price_units', op: '>=', value: 1 }] })).toBe(false);
    expect(rollupsServe({ where: [], text: 'sakura' })).toBe(false);
  });
});

forEachBackend((open) => {
  it('keeps the rollups equal to the records: one transaction, a record stored twice counted once, dropped with them', async () => {
    const store = await open();
    const rows = Array.from({ length: 600 }, (_, i) => row(i)); // ~2.9 days
    await store.history.commitDayPage(SCOPE, day('2026-11-01'), rows.slice(0, 300), []);
    await store.history.commitDayPage(SCOPE, day('2026-11-01'), rows.slice(250, 600), []); // 50 again
    await store.history.addResultRecords(SCOPE, rows.slice(0, 10));
    await store.history.putResult(SCOPE, { key: 'k', filters: {}, from: DAY0, to: DAY0 + 1000 }, 10, 0);

    const cases: [string, InsightsSearch, (r: HistoryRecordRow) => boolean, InsightsSums['source']][] = [
      ['whole UTC days', search(DAY0, DAY0 + 3 * 86_400_000 - 1), () => true, 'rollups'],
      [
        'JST days, ragged ends, a filter',
        search(DAY0 + 1234_567, DAY0 + 40 * H + 999, 'JST', [{ column: 'network_code', op: '=', value: '44020' }]),
        (r) => r.network_code === '44020',
        'both',
      ],
      [
        'a filter only the records answer',
        search(DAY0, DAY0 + 3 * 86_400_000 - 1, 'UTC', [{ column: 'price_units', op: '>=', value: 330_000_100 }]),
        (r) => (r.price_units ?? -1) >= 330_000_100,
        'records',
      ],
      [
        'free text and a latency bound, JST',
        search(DAY0 + 9 * H, DAY0 + 57 * H - 1, 'JST', [{ column: 'latency_ms', op: '>=', value: 5_000 }], 'MART'),
        (r) => r.from_address === 'SakuraMart' && (r.latency_ms ?? -1) >= 5_000,
        'records',
      ],
    ];
    // What only the records answer is read by SQL while the days are being copied, and from their
    // packs once the copy marks each day complete (Insights counts only complete days; the
    // rollups' latencies of a day are summed when it completes): both give what the records give.
    const recordsOnly = cases.filter(([, , , source]) => source === 'records');
    const complete = async () => {
      for (const d of ['2026-11-01', '2026-11-02', '2026-11-03'])
        await store.history.commitDayPage(SCOPE, { ...day(d), state: 'complete', completedAt: 1 }, [], []);
    };
    for (const [name, s, keep, source] of [
      ...recordsOnly.map(([n, ...rest]) => [`${n} (days being copied)`, ...rest] as const),
      ...cases,
    ]) {
      if (name === cases[0]![0]) await complete();
      const got = await store.insights.read(s, { hourly: true });
      const want = expectedSums(rows, s, keep);
      expect(got.sums.source, name).toBe(source);
      for (const k of ['byDay', 'byNetwork', 'bySender', 'byApiKey', 'byDlr'] as const)
        expect(sorted(got.sums[k]), `${name}: ${k}`).toEqual(sorted(want[k]));
      const latencies = [...got.latencies.values()].flatMap((a) => [...a]);
      expect(
        latencies.sort((a, b) => a - b),
        `${name}: latencies`,
      ).toEqual(want.latencies.sort((a, b) => a - b));
      expect(sorted(got.hourly), `${name}: hourly`).toEqual(sorted(want.hourly));
      expect((await store.insights.read(s, { hourly: false })).hourly, `${name}: no hourly unless asked`).toEqual([]);
    }
    const hourly = (await store.insights.read(search(DAY0 + 1800_000, DAY0 + 30 * H), { hourly: true })).hourly;
    expect(hourly.reduce((n, h) => n + h.records, 0)).toBe(
      rows.filter((r) => r.received_ms >= DAY0 + 1800_000 && r.received_ms <= DAY0 + 30 * H).length,
    );

    // Dropping the days before Nov 2 keeps the JST day that straddles the cut exact.
    await store.history.deleteBefore(SCOPE, '2026-11-02');
    const kept = rows.filter((r) => r.day >= '2026-11-02');
    for (const zone of ['UTC', 'JST'] as const) {
      const s = search(DAY0, DAY0 + 4 * 86_400_000 - 1, zone);
      const got = await store.insights.read(s, { hourly: false });
      expect(sorted(got.sums.byDay), zone).toEqual(sorted(expectedSums(kept, s, () => true).byDay));
      const latencies = [...got.latencies.values()].flatMap((a) => [...a]).sort((a, b) => a - b);
      expect(latencies, `${zone}: latencies`).toEqual(
        expectedSums(kept, s, () => true).latencies.sort((a, b) => a - b),
      );
    }
    await store.history.deleteScope(SCOPE);
    expect((await store.insights.read(search(DAY0, DAY0 + 3 * 86_400_000 - 1), { hourly: false })).sums.byDay).toEqual(
      [],
    );
  });

  it('reads only its scope', async () => {
    const store = await open();
    const rows = Array.from({ length: 300 }, (_, i) => row(i));
    await store.history.commitDayPage('other|', day('2026-11-01'), rows, []);
    const s = search(DAY0, DAY0 + 86_400_000 - 1);
    const got = await store.insights.read(s, { hourly: true });
    expect(got.sums.byDay).toEqual([]);
    expect([...got.latencies.values()].every((a) => a.length === 0)).toBe(true);
    expect(got.hourly).toEqual([]);
  });
});
