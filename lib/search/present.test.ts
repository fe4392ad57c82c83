import { describe, expect, it } from 'vitest';
import type { Cdr } from '../cdr/schema';
import { jsonBytes } from '../http/json-text';
import { parseQuery, queryParams, type TransactionsQuery } from '../query/query';
import { sampleCdr } from '../upstream/test-fixtures';
import { pageLinks, presentCdr } from './present';

describe('a presented record', () => {
  it('shows its times in the zone asked for and links to the dashboard, leaving the upstream’s record as it was', () => {
    const upstream = sampleCdr() as Cdr;
    const before = JSON.stringify(upstream);
    const jst = presentCdr(upstream, 'JST');
    expect(jst.date_received).toBe('2025-10-01T18:15:02.123+0900');
    expect(jst.date_delivered).toBe('2025-10-01T18:15:04.000+0900');
    expect(jst._links?.self?.href).toBe(`/api/transactions/${upstream.trx_id}?tz=JST`);
    expect(presentCdr(upstream, 'UTC').date_received).toBe('2025-10-01T09:15:02.123+0000');
    expect(JSON.stringify(upstream)).toBe(before);
  });

  it('is made once per record and zone, and its JSON once with it', () => {
    const upstream = sampleCdr() as Cdr;
    const utc = presentCdr(upstream, 'UTC');
    expect(presentCdr(upstream, 'UTC')).toBe(utc);
    expect(presentCdr(upstream, 'JST')).not.toBe(utc);
    expect(jsonBytes(utc)).toBe(jsonBytes(presentCdr(upstream, 'UTC')));
    // A record read again from the upstream is a new record: presented afresh.
    expect(presentCdr(sampleCdr() as Cdr, 'UTC')).not.toBe(utc);
  });
});

describe('the links of a page', () => {
  const query = (page: number): TransactionsQuery => {
    const parsed = parseQuery(
      new URLSearchParams({
        'date-from': '2026-11-01 00:00:00',
        'date-to': '2026-11-08 00:00:00',
        tz: 'JST',
        status: 'DELIVRD',
        'page-size': '50',
        page: String(page),
      }),
    );
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    return parsed.query;
  };
  const href = (q: TransactionsQuery, page: number) => `/api/transactions?${queryParams({ ...q, page }).toString()}`;

  it('carry the whole query in its canonical form, page by page', () => {
    const q = query(3);
    expect(pageLinks(q, 9)).toEqual({
      self: { href: href(q, 3) },
      first: { href: href(q, 1) },
      last: { href: href(q, 9) },
      next: { href: href(q, 4) },
      prev: { href: href(q, 2) },
    });
  });

  it('have no next on the last page and no previous on the first, and a previous past the end points at the last', () => {
    expect(pageLinks(query(1), 1)).toEqual({
      self: { href: href(query(1), 1) },
      first: { href: href(query(1), 1) },
      last: { href: href(query(1), 1) },
    });
    expect(pageLinks(query(12), 9).prev).toEqual({ href: href(query(12), 9) });
  });
});
