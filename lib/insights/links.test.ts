import { describe, expect, it } from 'vitest';
import { parseQuery, type TransactionsQuery } from '../query/query';
import { bucketBounds, formatLatency, formatPrice, formatRate, shortDay } from './format';
import { countedQuery, countedRun, drillHref } from './links';

function query(params: Record<string, string>): TransactionsQuery {
  const r = parseQuery(params);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.query;
}

describe('Insights drill-down links', () => {
  const q = query({
    'date-from': '2026-11-01 00:00:00',
    'date-to': '2026-11-20 23:59:59',
    tz: 'JST',
    network: '44010',
  });

  it('keep the query and add what was clicked', () => {
    const url = new URL(drillHref(q, { filters: { status: 'UNDELIV' } }), 'http://x');
    expect(url.pathname).toBe('/transactions');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      'date-from': '2026-11-01 00:00:00',
      'date-to': '2026-11-20 23:59:59',
      tz: 'JST',
      network: '44010',
      status: 'UNDELIV',
      page: '1',
    });
  });

  it('cut the range to a day or an hour of the query’s zone, and can drop a filter', () => {
    const day = new URL(drillHref(q, { day: '2026-11-05', filters: { network: '' } }), 'http://x').searchParams;
    expect([day.get('date-from'), day.get('date-to'), day.get('network')]).toEqual([
      '2026-11-05 00:00:00',
      '2026-11-06 00:00:00',
      null,
    ]);
    const hour = new URL(drillHref(q, { hour: '2026-11-05 13:00' }), 'http://x').searchParams;
    expect([hour.get('date-from'), hour.get('date-to')]).toEqual(['2026-11-05 13:00:00', '2026-11-05 14:00:00']);
    const edge = query({ 'date-from': '2026-11-01 12:00:00', 'date-to': '2026-11-02 06:00:00', tz: 'UTC' });
    const first = new URL(drillHref(edge, { day: '2026-11-01' }), 'http://x').searchParams;
    expect([first.get('date-from'), first.get('date-to')]).toEqual(['2026-11-01 12:00:00', '2026-11-02 00:00:00']);
  });
});

describe('the counted part of a query', () => {
  it('is the query cut to the newest counted days without a gap, in its zone, to the next day’s first instant', () => {
    const q = query({ 'date-from': '2026-11-01 12:00:00', 'date-to': '2026-11-23 23:59:59', tz: 'JST' });
    const days = (states: string) =>
      [...states].map((s, i) => ({
        day: `2026-11-${String(i + 1).padStart(2, '0')}`,
        state: s === 'c' ? 'complete' : s === 'm' ? 'missing' : 'unsettled',
      }));
    const whole = countedRun(days('ccccu'));
    expect(whole).toEqual({ first: '2026-11-01', last: '2026-11-04', all: true });
    const url = new URL(drillHref(countedQuery(q, whole), {}), 'http://x').searchParams;
    expect([url.get('date-from'), url.get('date-to')]).toEqual(['2026-11-01 12:00:00', '2026-11-05 00:00:00']);
    // A day missing between counted days: the newest run only, and it says it is not all of them.
    expect(countedRun(days('ccmccu'))).toEqual({ first: '2026-11-04', last: '2026-11-05', all: false });
    expect(countedRun(days('mmu'))).toBeNull();
    expect(countedQuery(q, null)).toBe(q);
  });
});

describe('Insights formats', () => {
  it('write rates, latencies and exact prices', () => {
    expect(formatRate(0.9123)).toBe('91.2 %');
    expect(formatRate(1)).toBe('100 %');
    expect(formatRate(null)).toBe('—');
    expect(formatLatency(850)).toBe('850 ms');
    expect(formatLatency(6316)).toBe('6.32 s');
    expect(formatLatency(78659)).toBe('1.3 min');
    expect(formatLatency(8210420)).toBe('2.3 h');
    expect(formatPrice('1234567.30000000')).toBe('1,234,567.30');
    expect(formatPrice('0.00000001')).toBe('0.00000001');
  });

  it('write them in Japanese: the percent sign against the figure, 秒/分/時間, days with their weekday', () => {
    expect(formatRate(0.9123, 'ja')).toBe('91.2%');
    expect(formatRate(1, 'ja')).toBe('100%');
    expect(formatLatency(850, 'ja')).toBe('850ミリ秒');
    expect(formatLatency(6316, 'ja')).toBe('6.32秒');
    expect(formatLatency(78659, 'ja')).toBe('1.3分');
    expect(formatLatency(8210420, 'ja')).toBe('2.3時間');
    expect(shortDay('2025-10-03', 'ja')).toBe('10月3日(金)');
    expect(shortDay('2025-10-03')).toBe('10-03');
    expect(bucketBounds({ fromMs: 60_000, toMs: 300_000 }, 'ja')).toEqual({ from: '1分', to: '5分' });
    expect(bucketBounds({ fromMs: 21_600_000, toMs: null }, 'en')).toEqual({ from: '6 h', to: '' });
  });
});
