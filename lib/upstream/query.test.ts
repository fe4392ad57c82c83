import { describe, expect, it } from 'vitest';
import { normaliseUpstreamQuery, toUpstreamSearch, type UpstreamQuery } from './query';

const base: UpstreamQuery = {
  dateFrom: '2025-10-01 00:00:00',
  dateTo: '2025-10-08 23:59:59',
  page: 1,
  pageSize: 25,
  tz: 'UTC',
  sortOrder: 'desc',
};

describe('toUpstreamSearch', () => {
  it('URLSearchParams writes a space as + and a colon as %3A, as the sample request does', () => {
    expect(new URLSearchParams({ d: '2025-10-01 00:00:00' }).toString()).toBe('d=2025-10-01+00%3A00%3A00');
  });

  it('encodes the sample request’s parameters byte for byte in the sample’s order', () => {
    // Sample: ?enterprise-id=<enterprise-id>&date-from=2025-10-01+00%3A00%3A00&date-to=2025-10-08+23%3A59%3A59&page-size=25&tz=UTC
    const s = toUpstreamSearch({ ...base, enterpriseId: 'ent-sakura' });
    expect(s).toBe(
      'enterprise-id=ent-sakura&date-from=2025-10-01+00%3A00%3A00&date-to=2025-10-08+23%3A59%3A59&page-size=25&page=1&tz=UTC&sort-order=desc',
    );
    const sampleOnly = s.split('&').filter((p) => !p.startsWith('page=') && !p.startsWith('sort-order='));
    expect(sampleOnly.join('&')).toBe('enterprise-id=ent-sakura&date-from=2025-10-01+00%3A00%3A00&date-to=2025-10-08+23%3A59%3A59&page-size=25&tz=UTC');
  });

  it('uses the seed’s names for every filter, in a fixed order', () => {
    const s = toUpstreamSearch({
      ...base,
      status: 'DELIVRD',
      oa: 'SAKURA Co',
      da: '+819012345678',
      clientReference: 'order#42&x=1',
      network: '44010',
      apiKey: 'demo',
      enterpriseId: 'ent-sakura',
      tz: 'JST',
      sortOrder: 'asc',
      page: 7,
      pageSize: 100,
    });
    expect([...new URLSearchParams(s).keys()]).toEqual([
      'enterprise-id',
      'date-from',
      'date-to',
      'page-size',
      'page',
      'api-key',
      'network',
      'client-reference',
      'da',
      'oa',
      'status',
      'tz',
      'sort-order',
    ]);
    expect(s).toContain('da=%2B819012345678');
    expect(s).toContain('client-reference=order%2342%26x%3D1');
    expect(s).toContain('oa=SAKURA+Co');
    expect(new URLSearchParams(s).get('client-reference')).toBe('order#42&x=1');
  });

  it('omits empty, blank and undefined filters; trims the rest', () => {
    const s = toUpstreamSearch({ ...base, apiKey: '', network: '   ', da: undefined, status: ' DELIVRD ' });
    expect(s).toBe('date-from=2025-10-01+00%3A00%3A00&date-to=2025-10-08+23%3A59%3A59&page-size=25&page=1&status=DELIVRD&tz=UTC&sort-order=desc');
  });

  it('writes a datetime-local value in the seed’s format', () => {
    const s = toUpstreamSearch({ ...base, dateFrom: '2025-10-01T09:30', dateTo: ' 2025-10-02 10:00:05 ' });
    const p = new URLSearchParams(s);
    expect(p.get('date-from')).toBe('2025-10-01 09:30:00');
    expect(p.get('date-to')).toBe('2025-10-02 10:00:05');
  });

  it('keeps an empty date (so the upstream, not this module, says what is wrong)', () => {
    expect(new URLSearchParams(toUpstreamSearch({ ...base, dateFrom: '' })).get('date-from')).toBe('');
  });

  it('refuses a page or page size that is not a positive integer', () => {
    expect(() => toUpstreamSearch({ ...base, page: 0 })).toThrow(RangeError);
    expect(() => toUpstreamSearch({ ...base, page: 1.5 })).toThrow(RangeError);
    expect(() => toUpstreamSearch({ ...base, pageSize: Number.NaN })).toThrow(RangeError);
  });
});

describe('normaliseUpstreamQuery', () => {
  it('is the same for the same query whatever the key order and whitespace', () => {
    const a: UpstreamQuery = { ...base, network: '44010', enterpriseId: 'ent-sakura', status: 'DELIVRD' };
    const b = { status: ' DELIVRD', sortOrder: 'desc', tz: 'UTC', enterpriseId: 'ent-sakura ', pageSize: 25, page: 1, network: '44010', dateTo: base.dateTo, dateFrom: base.dateFrom } as UpstreamQuery;
    expect(normaliseUpstreamQuery(a)).toBe(normaliseUpstreamQuery(b));
  });

  it('treats an empty filter as no filter', () => {
    expect(normaliseUpstreamQuery({ ...base, da: '' })).toBe(normaliseUpstreamQuery(base));
  });

  it('differs when anything sent differs', () => {
    const k = normaliseUpstreamQuery(base);
    expect(normaliseUpstreamQuery({ ...base, page: 2 })).not.toBe(k);
    expect(normaliseUpstreamQuery({ ...base, tz: 'JST' })).not.toBe(k);
    expect(normaliseUpstreamQuery({ ...base, sortOrder: 'asc' })).not.toBe(k);
    expect(normaliseUpstreamQuery({ ...base, oa: 'X' })).not.toBe(k);
  });

  it('equals the wire query, so a key and a request can never disagree', () => {
    expect(normaliseUpstreamQuery(base)).toBe(toUpstreamSearch(base));
  });
});
