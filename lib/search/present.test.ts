import { describe, expect, it } from 'vitest';
import { parseQuery, queryParams, type TransactionsQuery } from '../query/query';
import { pageLinks } from './present';

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
