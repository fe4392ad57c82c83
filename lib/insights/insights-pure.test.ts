import { describe, expect, it } from 'vitest';
import { readsByHour } from './api';
import { coverDays, countedRanges } from './coverage';
import { coverageNote, spanText } from './coverage-note';
import { foldSums, outcomeKind } from './fold';
import { concat, histogramOf, nearestRank, percentilesOf } from './latency-stats';
import { daySegments, zoneDayIndex, zoneDayName, zoneHourName } from '../time/zone-days';
import { translate } from '../i18n/translate';

const T = (iso: string) => Date.parse(iso);

describe('zone days', () => {
  it('cut a range at the zone’s midnights', () => {
    const segs = daySegments(T('2026-11-01T10:00:00Z'), T('2026-11-02T20:00:00Z'), 'JST');
    expect(segs.map((s) => [s.day, new Date(s.from).toISOString(), new Date(s.to).toISOString()])).toEqual([
      ['2026-11-01', '2026-11-01T10:00:00.000Z', '2026-11-01T14:59:59.999Z'],
      ['2026-11-02', '2026-11-01T15:00:00.000Z', '2026-11-02T14:59:59.999Z'],
      ['2026-11-03', '2026-11-02T15:00:00.000Z', '2026-11-02T20:00:00.000Z'],
    ]);
    expect(daySegments(T('2026-11-01T00:00:00Z'), T('2026-11-01T23:59:59Z'), 'UTC')).toHaveLength(1);
  });

  it('name days and hours in the zone', () => {
    expect(zoneDayName(zoneDayIndex(T('2026-11-01T15:00:00Z'), 'JST'))).toBe('2026-11-02');
    expect(zoneDayName(zoneDayIndex(T('2026-11-01T15:00:00Z'), 'UTC'))).toBe('2026-11-01');
    expect(zoneHourName(T('2026-11-01T15:00:00Z'), 'JST')).toBe('2026-11-02 00:00');
  });
});

describe('coverage', () => {
  const held = {
    complete: ['2026-11-01', '2026-11-02', '2026-11-03'],
    syncing: ['2026-11-04'],
    settledBefore: T('2026-11-05T12:00:00Z'),
  };

  it('counts a zone day only when every UTC day it touches is complete', () => {
    const utc = coverDays(T('2026-11-01T00:00:00Z'), T('2026-11-06T23:59:59Z'), 'UTC', held);
    expect(utc.map((d) => `${d.day}:${d.state}`)).toEqual([
      '2026-11-01:complete',
      '2026-11-02:complete',
      '2026-11-03:complete',
      '2026-11-04:syncing',
      '2026-11-05:unsettled',
      '2026-11-06:unsettled',
    ]);
    // JST Nov 1 starts on UTC Oct 31 (not held); JST Nov 4 ends on UTC Nov 4 (being copied).
    const jst = coverDays(T('2026-10-31T15:00:00Z'), T('2026-11-04T14:59:59Z'), 'JST', held);
    expect(jst.map((d) => `${d.day}:${d.state}`)).toEqual([
      '2026-11-01:missing',
      '2026-11-02:complete',
      '2026-11-03:complete',
      '2026-11-04:syncing',
    ]);
  });

  it('calls a zone day not settled while a UTC day it needs is not, though its own end is', () => {
    // Settled before Nov 5 16:00 UTC: the copy's last day is UTC Nov 4. JST Nov 5 ends at UTC Nov 5
    // 14:59:59.999, before that instant, but needs UTC Nov 5, which the copy reads only once all of
    // it has settled.
    const late = { ...held, settledBefore: T('2026-11-05T16:00:00Z') };
    const jst = coverDays(T('2026-11-03T15:00:00Z'), T('2026-11-05T14:59:59Z'), 'JST', late);
    expect(jst.map((d) => `${d.day}:${d.state}`)).toEqual(['2026-11-04:syncing', '2026-11-05:unsettled']);
  });

  it('reads the next midnight with a complete day, and joins adjacent counted days into one range', () => {
    const days = coverDays(T('2026-11-02T00:00:00Z'), T('2026-11-04T00:00:00Z'), 'UTC', held);
    expect(days.map((d) => d.state)).toEqual(['complete', 'complete', 'complete']); // Nov 4 00:00:00.000 was read with Nov 3
    expect(countedRanges(days)).toEqual([{ from: T('2026-11-02T00:00:00Z'), to: T('2026-11-04T00:00:00Z') }]);
  });

  it('says it in one sentence', () => {
    const days = coverDays(T('2026-11-01T00:00:00Z'), T('2026-11-06T23:59:59Z'), 'UTC', held);
    expect(translate('en', coverageNote(days, 54210))).toBe(
      'complete for Nov 1–3 (54,210 messages); Nov 4 being synced, not included; Nov 5–6 not settled, not included',
    );
    expect(translate('ja', coverageNote(days, 54210, 'ja'))).toBe(
      '11月1日〜3日は集計済み(54,210件)。11月4日は同期中のため含みません。11月5日〜6日は未確定のため含みません',
    );
    expect(translate('en', coverageNote([{ day: '2026-11-01', state: 'missing' }], 0))).toBe(
      'no complete day in this range; Nov 1 not in the local history, not included',
    );
    const gaps = ['missing', 'complete', 'missing', 'complete', 'missing'].map((state, i) => ({
      day: `2026-11-0${i + 1}`,
      state: state as 'missing' | 'complete',
    }));
    expect(translate('en', coverageNote(gaps, 1200))).toBe(
      'complete for Nov 2 and Nov 4 (1,200 messages); Nov 1, Nov 3 and Nov 5 not in the local history, not included',
    );
    expect(translate('ja', coverageNote(gaps, 1200, 'ja'))).toBe(
      '11月2日、11月4日は集計済み(1,200件)。11月1日、11月3日、11月5日は保存済み履歴にないため含みません',
    );
    expect(spanText(['2026-10-30', '2026-11-02'])).toBe('Oct 30–Nov 2');
    expect(spanText(['2026-12-30', '2027-01-02'])).toBe('Dec 30, 2026–Jan 2, 2027');
    expect(spanText(['2026-10-30', '2026-11-02'], 'ja')).toBe('10月30日〜11月2日');
    expect(spanText(['2026-11-01', '2026-11-20'], 'ja')).toBe('11月1日〜20日');
    expect(spanText(['2026-12-30', '2027-01-02'], 'ja')).toBe('2026年12月30日〜2027年1月2日');
  });
});

describe('hours or days', () => {
  it('reads a range of up to a week by hour, whatever part of it is counted', () => {
    // Noon to noon: a week over eight days.
    expect(readsByHour(T('2026-11-01T12:00:00Z'), T('2026-11-08T12:00:00Z'))).toBe(true);
    expect(readsByHour(T('2026-11-01T12:00:00Z'), T('2026-11-08T12:00:01Z'))).toBe(false);
    expect(readsByHour(T('2026-11-01T00:00:00Z'), T('2026-12-01T23:59:59Z'))).toBe(false);
  });
});

describe('latency percentiles (nearest rank)', () => {
  const values = (...v: number[]) => Float64Array.from(v);

  it('take the value at rank ⌈p·n⌉', () => {
    expect(nearestRank(50, 4)).toBe(2);
    expect(nearestRank(99, 100)).toBe(99);
    expect(nearestRank(99, 101)).toBe(100);
    expect(percentilesOf(values(50, 15, 40, 20, 35))).toEqual({ p50: 35, p90: 50, p99: 50, count: 5 });
    expect(percentilesOf(new Float64Array(0))).toEqual({ p50: null, p90: null, p99: null, count: 0 });
  });

  it('equal the sorted values at those ranks, whatever the order and however many ties', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (const n of [1, 2, 3, 10, 99, 100, 101, 1000, 4321]) {
      const v = Float64Array.from({ length: n }, () => Math.floor(random() * (n < 100 ? 5 : 100_000)));
      const sortedCopy = [...v].sort((a, b) => a - b);
      const at = (p: number) => sortedCopy[nearestRank(p, n) - 1];
      expect(percentilesOf(v), `n=${n}`).toEqual({ p50: at(50), p90: at(90), p99: at(99), count: n });
    }
  });

  it('of several days are those of all their values together', () => {
    const all = concat([values(5, 1, 9), values(2, 2, 8, 100), values(), values(7)]);
    expect([...all]).toEqual([5, 1, 9, 2, 2, 8, 100, 7]);
    expect(percentilesOf(all)).toEqual({ p50: 5, p90: 100, p99: 100, count: 8 });
  });

  it('fill histogram buckets [from, to)', () => {
    const counts = histogramOf(values(0, 999, 1000, 1999, 2000, 6 * 3600_000, 9e7, -5));
    expect(counts.slice(0, 3)).toEqual([3, 2, 1]);
    expect(counts[counts.length - 1]).toBe(2);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(8);
  });
});

describe('folding the store’s sums', () => {
  const jstDay = (iso: string) => zoneDayIndex(T(iso), 'JST');

  it('sums by day and hour in the zone, outcomes by breakdown, exact prices and explained DLR codes', () => {
    const d1 = jstDay('2026-11-01T14:00:00Z');
    const d2 = jstDay('2026-11-01T15:00:00Z');
    const f = foldSums(
      {
        byDay: [
          {
            day: d1,
            status: 'DELIVRD',
            currency: 'JPY',
            records: 3,
            parts_sum: 4,
            price_units: 3 * 330_000_000 + 1,
            priced: 3,
          },
          { day: d1, status: 'EXPIRED', currency: 'USD', records: 1, parts_sum: 1, price_units: 1, priced: 1 },
          {
            day: d2,
            status: 'UNDELIV',
            currency: 'JPY',
            records: 1,
            parts_sum: 1,
            price_units: 330_000_000,
            priced: 1,
          },
          { day: d2, status: 'ENROUTE', currency: 'JPY', records: 1, parts_sum: 1, price_units: 0, priced: 0 },
        ],
        byNetwork: [
          { network_code: '44010', network_name: 'NTT docomo', status: 'DELIVRD', records: 3 },
          { network_code: '44010', network_name: 'NTT docomo', status: 'ENROUTE', records: 2 },
          { network_code: '44020', network_name: 'SoftBank', status: 'UNDELIV', records: 1 },
        ],
        bySender: [{ from_address: 'SakuraMart', status: 'DELIVRD', records: 6 }],
        byApiKey: [{ api_key: 'demo', api_key_name: 'Demo key', status: 'DELIVRD', records: 6 }],
        byDlr: [
          { dlr_error_code: '000', records: 3 },
          { dlr_error_code: '', records: 1 },
          { dlr_error_code: '001', records: 1 },
          { dlr_error_code: '027', records: 1 },
          { dlr_error_code: '999', records: 1 },
        ],
      },
      [
        { hour_ms: T('2026-11-01T14:00:00Z'), status: 'DELIVRD', records: 3 },
        { hour_ms: T('2026-11-01T15:00:00Z'), status: 'UNDELIV', records: 1 },
      ],
      'JST',
      [d1, d2, d2 + 1],
      [T('2026-11-01T14:00:00Z'), T('2026-11-01T15:00:00Z'), T('2026-11-01T16:00:00Z')],
    );
    expect(f.total).toBe(6);
    expect(f.rate).toBe(0.5);
    expect(f.byStatus).toEqual({ DELIVRD: 3, EXPIRED: 1, UNDELIV: 1, ENROUTE: 1 });
    expect(f.byDay.map((d) => [d.day, d.total, d.delivered, d.failed, d.other, d.parts])).toEqual([
      ['2026-11-01', 4, 3, 1, 0, 5],
      ['2026-11-02', 2, 0, 1, 1, 2],
      ['2026-11-03', 0, 0, 0, 0, 0],
    ]);
    expect(f.byHour.map((h) => [h.hour, h.total])).toEqual([
      ['2026-11-01 23:00', 3],
      ['2026-11-02 00:00', 1],
      ['2026-11-02 01:00', 0],
    ]);
    expect(f.byNetwork[0]).toMatchObject({ network_code: '44010', total: 5, delivered: 3, other: 2, rate: 0.6 });
    expect(f.price).toEqual([
      { currency: 'JPY', total: '13.20000001', records: 4 },
      { currency: 'USD', total: '0.00000001', records: 1 },
    ]);
    expect(f.parts).toBe(7);
    expect(f.dlrErrors).toEqual([
      { code: '001', reason: 'Unknown subscriber: the number does not exist.', final: true, count: 1 },
      { code: '027', reason: 'Absent subscriber: the handset is off or out of coverage.', final: false, count: 1 },
      { code: '999', reason: 'A code this dashboard does not know.', final: null, count: 1 },
    ]);
    expect(outcomeKind('SKIPPED')).toBe('other');
  });
});
