import { describe, expect, it } from 'vitest';
import { parseQuery, type TransactionsQuery } from '@/lib/query/query';
import { formatLatency, formatPrice, formatRate } from './insights-format';
import { countedQuery, drillHref } from './insights-links';

function query(params: Record<string, string>): TransactionsQuery {
  const r = parseQuery(params);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.query;
}

describe('Insights drill-down links', () => {
  const q = query({ 'date-from': '2026-11-01 00:00:00', 'date-to': '2026-11-20 23:59:59', tz: 'JST', network: '44010' });

  it('keep the query and add what was clicked', () => {
    const url = new URL(drillHref(q, { filters: { status: 'UNDELIV' } }), 'http://x');
    expect(url.pathname).toBe('/transactions');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ 'date-from': '2026-11-01 00:00:00', 'date-to': '2026-11-20 23:59:59', tz: 'JST', network: '44010', status: 'UNDELIV', page: '1' });
  });

  it('cut the range to a day or an hour of the query’s zone, and can drop a filter', () => {
    const day = new URL(drillHref(q, { day: '2026-11-05', filters: { network: '' } }), 'http://x').searchParams;
    expect([day.get('date-from'), day.get('date-to'), day.get('network')]).toEqual(['2026-11-05 00:00:00', '2026-11-05 23:59:59', null]);
    const hour = new URL(drillHref(q, { hour: '2026-11-05 13:00' }), 'http://x').searchParams;
    expect([hour.get('date-from'), hour.get('date-to')]).toEqual(['2026-11-05 13:00:00', '2026-11-05 13:59:59']);
    const edge = query({ 'date-from': '2026-11-01 12:00:00', 'date-to': '2026-11-02 06:00:00', tz: 'UTC' });
    const first = new URL(drillHref(edge, { day: '2026-11-01' }), 'http://x').searchParams;
    expect([first.get('date-from'), first.get('date-to')]).toEqual(['2026-11-01 12:00:00', '2026-11-01 23:59:59']);
  });
});

describe('the counted part of a query', () => {
  it('is the query cut to the first and last counted day, in its zone', () => {
    const q = query({ 'date-from': '2026-11-01 12:00:00', 'date-to': '2026-11-23 23:59:59', tz: 'JST' });
    const c = countedQuery(q, '2026-11-01', '2026-11-19');
    const url = new URL(drillHref(c, {}), 'http://x').searchParams;
    expect([url.get('date-from'), url.get('date-to')]).toEqual(['2026-11-01 12:00:00', '2026-11-19 23:59:59']);
    expect(countedQuery(q, null, null)).toBe(q);
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
});
