/**
 * Insights against the simulator's own records: the local history filled with the simulator's
 * records of several settled days (tests/support/history-fixture.ts, what a finished sync leaves),
 * then every aggregate of the answer — counts, rates, breakdowns, DLR codes, nearest-rank latency
 * percentiles per day and overall, the histogram, parts and prices to the last decimal — must equal
 * the value computed here straight from the simulator's records for the same query, in UTC and JST
 * days, without filters, with filters the rollups answer, and with filters only the records answer.
 * And no upstream call is made.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadHistoryFixture } from '../../tests/support/history-fixture';
import { searchQuery } from '../../tests/support/parsed';
import { startHarness, type Harness } from '../../tests/support/service-harness';
import type { InsightsAnswer } from './api';
import { explainDlrError } from '../cdr/dlr-errors';
import type { Cdr } from '../cdr/schema';
import { statusInfo } from '../cdr/status';
import { addDays, dayOf, lastSettledDay, startOf } from '../history/days';
import { formatPriceUnits, recordColumns, type RecordColumns } from '../cdr/record-columns';
import { scopeOf } from '../history/scope';
import { parseQuery } from '../query/query';
import { zoneDayIndex, zoneDayName, zoneHourName } from '../time/zone-days';
import type { Zone } from '../time/zones';
import { LATENCY_BUCKETS } from './latency-stats';

const DAY = 86_400_000;
const ACCOUNT = { apiKey: 'demo', enterpriseId: null };
let h: Harness;
let fromDay: string;
let toDay: string;

beforeAll(async () => {
  h = await startHarness({ sim: { perDay: 2500, days: 14, seed: 23 } });
  toDay = lastSettledDay(h.policy.settledBefore(Date.now()));
  fromDay = addDays(toDay, -4);
  await loadHistoryFixture(h.store.history, h.sim.dataset, {
    scope: scopeOf(ACCOUNT).key,
    enterpriseId: 'ent-sakura',
    fromDay,
    toDay,
  });
}, 120_000);

afterAll(async () => {
  await h?.close();
});

/** The simulator's records of [from, to] as the local history keeps them (columns derived once, by record-columns.ts). */
function simRecords(from: number, to: number): RecordColumns[] {
  const all = h.sim.dataset.query({ from, to, enterpriseId: 'ent-sakura', order: 'asc', offset: 0, limit: 10_000_000 });
  return all.indices.map((i) => recordColumns(h.sim.dataset.recordAt(i, 'UTC') as unknown as Cdr)!);
}

const nearest = (sorted: number[], p: number) =>
  sorted.length === 0 ? null : sorted[Math.max(1, Math.ceil((p / 100) * sorted.length)) - 1]!;
const percentiles = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return { p50: nearest(s, 50), p90: nearest(s, 90), p99: nearest(s, 99), count: s.length };
};
const kind = (status: string) =>
  status === 'DELIVRD' ? 'delivered' : statusInfo(status)?.tone === 'failure' ? 'failed' : 'other';
const rate = (delivered: number, total: number) => (total === 0 ? null : delivered / total);

/** Prices summed exactly (BigInt), per currency, as the decimal strings the API gives. */
function prices(records: readonly RecordColumns[]) {
  const sums = new Map<string, { units: bigint; records: number }>();
  for (const r of records) {
    if (r.price_units === null) continue;
    const s = sums.get(r.currency) ?? { units: 0n, records: 0 };
    s.units += BigInt(r.price_units);
    s.records += 1;
    sums.set(r.currency, s);
  }
  return [...sums]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, s]) => ({ currency, total: formatPriceUnits(Number(s.units)), records: s.records }));
}

/** What the answer must say, from the records straight: `keep` is the query's filters, applied here independently. */
function expected(from: number, to: number, zone: Zone, keep: (r: RecordColumns) => boolean) {
  // Counted: the zone days whose part of the range lies in the complete UTC days [fromDay, toDay] (and the next midnight).
  const heldFrom = startOf(fromDay);
  const heldTo = startOf(toDay) + DAY;
  const counted = new Set<number>();
  for (let d = zoneDayIndex(from, zone); d <= zoneDayIndex(to, zone); d++) {
    const start = d * DAY - (zone === 'JST' ? 9 * 3_600_000 : 0);
    if (Math.max(from, start) >= heldFrom && Math.min(to, start + DAY - 1) <= heldTo) counted.add(d);
  }
  const records = simRecords(from, to).filter((r) => counted.has(zoneDayIndex(r.received_ms, zone)) && keep(r));
  const group = <K>(keyOf: (r: RecordColumns) => K) => {
    const m = new Map<K, RecordColumns[]>();
    for (const r of records) m.set(keyOf(r), [...(m.get(keyOf(r)) ?? []), r]);
    return m;
  };
  const outcome = (rs: RecordColumns[]) => {
    const o = { total: rs.length, delivered: 0, failed: 0, other: 0 };
    for (const r of rs) o[kind(r.status)] += 1;
    return { ...o, rate: rate(o.delivered, o.total) };
  };
  const byStatus = (rs: RecordColumns[]) =>
    Object.fromEntries([...new Set(rs.map((r) => r.status))].map((s) => [s, rs.filter((r) => r.status === s).length]));
  const latencies = records.filter((r) => r.latency_ms !== null).map((r) => r.latency_ms!);
  const byDay = group((r) => zoneDayIndex(r.received_ms, zone));
  return {
    counted: [...counted].sort((a, b) => a - b).map(zoneDayName),
    total: records.length,
    delivered: records.filter((r) => r.status === 'DELIVRD').length,
    byStatus: byStatus(records),
    byDay: [...counted]
      .sort((a, b) => a - b)
      .map((d) => {
        const rs = byDay.get(d) ?? [];
        return {
          day: zoneDayName(d),
          ...outcome(rs),
          byStatus: byStatus(rs),
          parts: rs.reduce((s, r) => s + (r.parts ?? 0), 0),
          price: prices(rs),
          latencyMs: percentiles(rs.filter((r) => r.latency_ms !== null).map((r) => r.latency_ms!)),
        };
      }),
    hours: [...group((r) => zoneHourName(Math.floor(r.received_ms / 3_600_000) * 3_600_000, zone))].map(
      ([hour, rs]) => ({ hour, total: rs.length, delivered: outcome(rs).delivered }),
    ),
    byNetwork: [...group((r) => `${r.network_code}|${r.network_name}`)].map(([, rs]) => ({
      network_code: rs[0]!.network_code,
      network_name: rs[0]!.network_name,
      ...outcome(rs),
    })),
    bySender: [...group((r) => r.from_address)].map(([from_address, rs]) => ({ from_address, ...outcome(rs) })),
    byApiKey: [...group((r) => `${r.api_key}|${r.api_key_name}`)].map(([, rs]) => ({
      api_key: rs[0]!.api_key,
      api_key_name: rs[0]!.api_key_name,
      ...outcome(rs),
    })),
    dlrErrors: [...group((r) => r.dlr_error_code)]
      .filter(([code]) => code !== '' && Number(code) !== 0)
      .map(([code, rs]) => ({
        code,
        reason: explainDlrError(code)?.meaning ?? 'A code this dashboard does not know.',
        final: explainDlrError(code)?.permanent ?? null,
        count: rs.length,
      })),
    latencyMs: percentiles(latencies),
    histogram: LATENCY_BUCKETS.map(
      (b) => latencies.filter((v) => (b.fromMs === 0 || v >= b.fromMs) && (b.toMs === null || v < b.toMs)).length,
    ),
    parts: records.reduce((s, r) => s + (r.parts ?? 0), 0),
    price: prices(records),
  };
}

const byKey = <T>(rows: T[], key: (r: T) => string) => [...rows].sort((a, b) => key(a).localeCompare(key(b)));

async function check(
  params: Record<string, string>,
  keep: (r: RecordColumns) => boolean,
  source: InsightsAnswer['_meta']['computedFrom'],
) {
  const parsed = parseQuery(params);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  const { from, to, tz } = parsed.query;
  const callsBefore = h.upstreamCalls('demo');
  const got = await h.insights.get(ACCOUNT, parsed.query);
  const want = expected(from.getTime(), to.getTime(), tz, keep);

  expect(got._meta.computedFrom).toBe(source);
  expect(got.coverage.days.filter((d) => d.state === 'complete').map((d) => d.day)).toEqual(want.counted);
  expect(got.coverage.records).toBe(want.total);
  expect(got.total).toBe(want.total);
  expect(got.total).toBeGreaterThan(0);
  expect(got.delivered).toBe(want.delivered);
  expect(got.rate).toBe(rate(want.delivered, want.total));
  expect(got.byStatus).toEqual(want.byStatus);
  expect(got.byDay).toEqual(want.byDay);
  expect(byKey(got.byNetwork, (r) => r.network_code)).toEqual(byKey(want.byNetwork, (r) => r.network_code));
  expect(byKey(got.bySender, (r) => r.from_address)).toEqual(byKey(want.bySender, (r) => r.from_address));
  expect(byKey(got.byApiKey, (r) => r.api_key)).toEqual(byKey(want.byApiKey, (r) => r.api_key));
  expect(byKey(got.dlrErrors, (r) => r.code)).toEqual(byKey(want.dlrErrors, (r) => r.code));
  expect(got.latencyMs).toEqual(want.latencyMs);
  expect(got.latencyHistogram.map((b) => b.count)).toEqual(want.histogram);
  expect(got.parts).toBe(want.parts);
  expect(got.price).toEqual(want.price);
  if (got.byHour.length > 0) {
    for (const w of want.hours)
      expect(
        got.byHour.find((x) => x.hour === w.hour),
        w.hour,
      ).toMatchObject({ total: w.total, delivered: w.delivered });
    expect(got.byHour.reduce((s, x) => s + x.total, 0)).toBe(want.total);
  }
  expect(h.upstreamCalls('demo') - callsBefore).toBe(0);
  return got;
}

describe('Insights equal the simulator’s records', () => {
  const wide = () => ({ 'date-from': `${addDays(fromDay, -2)} 00:00:00`, 'date-to': `${dayOf(Date.now())} 23:59:59` });

  it('in UTC days, with the days it cannot count named', async () => {
    const got = await check({ ...wide(), tz: 'UTC' }, () => true, 'rollups');
    expect(got.coverage.complete).toBe(false);
    expect(got.coverage.days.some((d) => d.state === 'missing')).toBe(true);
    expect(got.coverage.days.some((d) => d.state === 'unsettled')).toBe(true);
    expect(got.coverage.note).toMatch(
      /^complete for .+ \([\d,]+ messages\); .+ not in the local history, not included; .+ not settled, not included$/,
    );
  }, 60_000);

  it('in JST days (the same instants, other days)', async () => {
    const p = parseQuery({ ...wide(), tz: 'UTC' });
    if (!p.ok) throw new Error('query');
    await check(jst(p.query.from, p.query.to), () => true, 'rollups');
  }, 60_000);

  it('with filters the rollups answer (network and status), whole days only', async () => {
    await check(
      {
        'date-from': `${fromDay} 00:00:00`,
        'date-to': `${addDays(toDay, 1)} 00:00:00`,
        tz: 'UTC',
        network: '44010',
        status: 'DELIVRD',
      },
      (r) => r.network_code === '44010' && r.status === 'DELIVRD',
      'both',
    );
    await check(
      {
        'date-from': `${addDays(fromDay, 1)} 00:00:00`,
        'date-to': `${addDays(fromDay, 2)} 23:59:59`,
        tz: 'JST',
        'api-key': 'sakura-shop',
      },
      (r) => r.api_key === 'sakura-shop',
      'both',
    );
  }, 60_000);

  it('with a range cut mid-hour in JST and a sender filter (rollups and records together), hour by hour', async () => {
    const got = await check(
      {
        'date-from': `${addDays(fromDay, 1)} 05:30:07`,
        'date-to': `${addDays(fromDay, 3)} 17:45:10`,
        tz: 'JST',
        oa: 'SakuraMart',
      },
      (r) => r.from_address === 'SakuraMart',
      'both',
    );
    expect(got.byHour.length).toBeGreaterThan(24);
  }, 60_000);

  it('with filters only the records answer (free text, latency, price)', async () => {
    await check(
      {
        'date-from': `${fromDay} 00:00:00`,
        'date-to': `${toDay} 23:59:59`,
        tz: 'UTC',
        q: 'sakura',
        'latency-min': '10',
      },
      (r) => r.search_text.includes('sakura') && r.latency_ms !== null && r.latency_ms >= 10_000,
      'records',
    );
    await check(
      { 'date-from': `${fromDay} 00:00:00`, 'date-to': `${toDay} 23:59:59`, tz: 'JST', 'price-min': '6.6' },
      (r) => r.price_units !== null && r.price_units >= 660_000_000,
      'records',
    );
  }, 60_000);

  it('says a range with no local history has no complete day, and counts nothing', async () => {
    const got = await h.insights.get(
      ACCOUNT,
      searchQuery({
        'date-from': `${addDays(fromDay, -5)} 00:00:00`,
        'date-to': `${addDays(fromDay, -3)} 23:59:59`,
        tz: 'UTC',
      }),
    );
    expect(got.total).toBe(0);
    expect(got.coverage).toMatchObject({ from: null, to: null, complete: false, records: 0 });
    expect(got.coverage.note).toMatch(/^no complete day in this range; .+ not in the local history, not included$/);
    // Another account's copy is not read.
    const other = await h.insights.get(
      { apiKey: 'sakura-ops', enterpriseId: null },
      searchQuery({ 'date-from': `${fromDay} 00:00:00`, 'date-to': `${toDay} 23:59:59`, tz: 'UTC' }),
    );
    expect(other.total).toBe(0);
  });
});

function jst(from: Date, to: Date): Record<string, string> {
  const wall = (d: Date) => new Date(d.getTime() + 9 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
  return { 'date-from': wall(from), 'date-to': wall(to), tz: 'JST' };
}
