import { describe, expect, it } from 'vitest';
import { baseOf, requestKey, upstreamBase, wireSearch } from './wire';

const FROM = new Date('2025-10-01T00:00:00Z');
const TO = new Date('2025-10-08T23:59:59Z');
const slice = (filters = {}) => ({ from: FROM, to: TO, filters });

describe('wireSearch', () => {
  it('URLSearchParams writes a space as + and a colon as %3A, as the sample request does', () => {
    expect(new URLSearchParams({ d: '2025-10-01 00:00:00' }).toString()).toBe('d=2025-10-01+00%3A00%3A00');
  });

  it('encodes the sample request’s parameters byte for byte in the sample’s order', () => {
    // Sample: ?enterprise-id=<enterprise-id>&date-from=2025-10-01+00%3A00%3A00&date-to=2025-10-08+23%3A59%3A59&page-size=25&tz=UTC
    const s = wireSearch({
      base: upstreamBase(slice(), { enterpriseId: 'ent-sakura', pageSize: 25 }),
      page: 1,
      sortOrder: 'desc',
    });
    expect(s).toBe(
      'enterprise-id=ent-sakura&date-from=2025-10-01+00%3A00%3A00&date-to=2025-10-08+23%3A59%3A59&page-size=25&page=1&tz=UTC&sort-order=desc',
    );
    const sampleOnly = s.split('&').filter((p) => !p.startsWith('page=') && !p.startsWith('sort-order='));
    expect(sampleOnly.join('&')).toBe(
      'enterprise-id=ent-sakura&date-from=2025-10-01+00%3A00%3A00&date-to=2025-10-08+23%3A59%3A59&page-size=25&tz=UTC',
    );
  });

  it('uses the seed’s names for every filter, in a fixed order, and leaves the local-only ones out', () => {
    const base = upstreamBase(
      slice({
        status: 'DELIVRD',
        oa: 'SAKURA Co',
        da: '+819012345678',
        'client-reference': 'order#42&x=1',
        network: '44010',
        'api-key': 'demo',
        q: 'hello',
        'da-suffix': '5678',
      }),
      { enterpriseId: 'ent-sakura', pageSize: 100 },
    );
    const s = wireSearch({ base, page: 7, sortOrder: 'asc' });
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

  it('reads the range in UTC whatever zone the person uses, and prefers the filter’s enterprise to the account’s', () => {
    const base = upstreamBase(
      { from: new Date('2025-10-01T09:00:00+09:00'), to: TO, filters: { 'enterprise-id': 'ent-fuji' } },
      { enterpriseId: 'ent-sakura', pageSize: 100 },
    );
    expect(base.params['date-from']).toBe('2025-10-01 00:00:00');
    expect(base.params.tz).toBe('UTC');
    expect(base.params['enterprise-id']).toBe('ent-fuji');
  });

  it('refuses a page or page size that is not a positive integer', () => {
    const base = upstreamBase(slice(), { enterpriseId: null, pageSize: 25 });
    expect(() => wireSearch({ base, page: 0, sortOrder: 'asc' })).toThrow(RangeError);
    expect(() => wireSearch({ base, page: 1.5, sortOrder: 'asc' })).toThrow(RangeError);
    expect(() => upstreamBase(slice(), { enterpriseId: null, pageSize: Number.NaN })).toThrow(RangeError);
  });
});

describe('the identity of an upstream request', () => {
  it('is the same for the same query whatever order its filters were given in', () => {
    const a = upstreamBase(slice({ network: '44010', status: 'DELIVRD' }), {
      enterpriseId: 'ent-sakura',
      pageSize: 100,
    });
    const b = upstreamBase(slice({ status: 'DELIVRD', network: '44010' }), {
      enterpriseId: 'ent-sakura',
      pageSize: 100,
    });
    expect(a.key).toBe(b.key);
    expect(requestKey({ base: a, page: 2, sortOrder: 'asc' })).toBe(requestKey({ base: b, page: 2, sortOrder: 'asc' }));
  });

  it('differs when anything sent differs', () => {
    const base = upstreamBase(slice(), { enterpriseId: null, pageSize: 100 });
    const k = requestKey({ base, page: 1, sortOrder: 'desc' });
    expect(requestKey({ base, page: 2, sortOrder: 'desc' })).not.toBe(k);
    expect(requestKey({ base, page: 1, sortOrder: 'asc' })).not.toBe(k);
    expect(
      requestKey({
        base: upstreamBase(slice({ oa: 'X' }), { enterpriseId: null, pageSize: 100 }),
        page: 1,
        sortOrder: 'desc',
      }),
    ).not.toBe(k);
  });

  it('is the wire form without page and sort, so a key and a request can never disagree', () => {
    const base = baseOf({
      'date-from': '2025-10-01 00:00:00',
      'date-to': '2025-10-02 00:00:00',
      'page-size': '100',
      tz: 'UTC',
    });
    const full = new URLSearchParams(wireSearch({ base, page: 3, sortOrder: 'asc' }));
    full.delete('page');
    full.delete('sort-order');
    expect(full.toString()).toBe(base.key);
  });
});
