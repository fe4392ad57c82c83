import { describe, expect, it } from 'vitest';
import type { TransactionsPage } from './api';
import { pageInZone } from './page-in-zone';

const href = (page: number) =>
  `/api/transactions?date-from=2026-11-26+15%3A00%3A00&date-to=2026-11-27+15%3A00%3A00&status=DELIVRD&tz=UTC&sort-order=desc&page-size=25&page=${page}`;

const utcPage = {
  page: 2,
  page_size: 25,
  _links: {
    self: { href: href(2) },
    first: { href: href(1) },
    last: { href: href(9) },
    next: { href: href(3) },
    prev: { href: href(1) },
  },
  _embedded: {
    total_found: 210,
    cdrs: [
      {
        trx_id: 'a'.repeat(32),
        date_received: '2026-11-27T14:59:58.120+0000',
        date_delivered: '',
        message_body: 'x',
        _links: { self: { href: '/api/transactions/a?tz=UTC' } },
      },
    ],
  },
  _meta: {
    source: 'upstream',
    calls: 1,
    tz: 'UTC',
    uncovered: [{ dateFrom: '2026-11-26 15:00:00', dateTo: '2026-11-27 00:00:00' }],
  },
} as unknown as TransactionsPage;

describe('a page shown in the other zone', () => {
  it('is the same records and instants, written in that zone, links included, and costs nothing', () => {
    const jst = pageInZone(utcPage, 'JST');
    expect(jst._embedded.cdrs[0]).toMatchObject({
      trx_id: 'a'.repeat(32),
      date_received: '2026-11-27T23:59:58.120+0900',
      date_delivered: '',
      message_body: 'x',
    });
    const next = new URLSearchParams(jst._links.next!.href.split('?')[1]);
    expect([next.get('date-from'), next.get('date-to'), next.get('tz'), next.get('status'), next.get('page')]).toEqual([
      '2026-11-27 00:00:00',
      '2026-11-28 00:00:00',
      'JST',
      'DELIVRD',
      '3',
    ]);
    expect(jst._meta).toMatchObject({
      tz: 'JST',
      source: 'cache',
      calls: 0,
      uncovered: [{ dateFrom: '2026-11-27 00:00:00', dateTo: '2026-11-27 09:00:00' }],
    });
    expect(jst._embedded.total_found).toBe(210);
    // The page it came from is left as it was (it stays in the browser's cache for UTC).
    expect(utcPage._embedded.cdrs[0]!.date_received).toBe('2026-11-27T14:59:58.120+0000');
    expect(pageInZone(jst, 'UTC')._embedded.cdrs[0]!.date_received).toBe('2026-11-27T14:59:58.120+0000');
  });
});
