import { describe, expect, it } from 'vitest';
import type { TransactionsPage } from './api';
import type { Cdr } from '../cdr/schema';
import { sampleCdr } from '../upstream/test-fixtures';
import { jsonBytes, keepJson } from '../http/json-text';
import { pageJson } from './page-json';
import { jsonResponse } from '../http/problem';

function page(cdrs: Cdr[]): TransactionsPage {
  return {
    page_size: 25,
    page: 2,
    _links: {
      self: {
        href: '/api/transactions?date-from=2026-11-01+00%3A00%3A00&date-to=2026-11-08+00%3A00%3A00&tz=UTC&sort-order=desc&page-size=25&page=2',
      },
      first: { href: '/api/transactions?page=1' },
      last: { href: '/api/transactions?page=9' },
    },
    _embedded: { total_found: 211, cdrs },
    _meta: {
      source: 'cache',
      calls: 0,
      fetchedAt: '2026-11-20T00:00:00.000Z',
      ageSeconds: 3,
      settled: true,
      freshUntil: '2026-12-20T00:00:00.000Z',
      tz: 'UTC',
      sortOrder: 'desc',
      totalPages: 9,
      reachablePages: 9,
      truncated: false,
      stale: 'a note with "quotes", \\ and \u0000',
    } as never,
  };
}

describe('the JSON of a transactions page', () => {
  it('is byte for byte what JSON.stringify writes, with kept records and fresh ones, Japanese text included', () => {
    const kept = sampleCdr({ trx_id: 'a'.repeat(32), message_body: 'お届け予定日は明日です 🚚' }) as Cdr;
    keepJson(kept);
    const fresh = sampleCdr({ trx_id: 'b'.repeat(32), ref: '"quoted", \\ and \u2028' }) as Cdr;
    const p = page([kept, fresh, kept]);
    expect(Buffer.from(pageJson(p)).toString('utf8')).toBe(JSON.stringify(p));
    expect(JSON.parse(Buffer.from(pageJson(p)).toString('utf8'))).toEqual(p);
  });

  it('goes out whole as a JSON answer', async () => {
    const kept = sampleCdr({ message_body: '配達' }) as Cdr;
    keepJson(kept);
    const p = page([kept]);
    const res = jsonResponse(pageJson(p), { headers: { ETag: 'W/"x"' } });
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('etag')).toBe('W/"x"');
    expect(await res.text()).toBe(JSON.stringify(p));
  });

  it('is right for a page without records', () => {
    const p = page([]);
    expect(Buffer.from(pageJson(p)).toString('utf8')).toBe(JSON.stringify(p));
  });
});

describe('kept JSON', () => {
  it('is written once for a value declared unchanging, and afresh for any other', () => {
    const declared = { status: 'ACCEPTD' };
    keepJson(declared);
    expect(jsonBytes(declared)).toBe(jsonBytes(declared));
    const other = { status: 'ACCEPTD' };
    expect(jsonBytes(other).toString()).toBe('{"status":"ACCEPTD"}');
    other.status = 'DELIVRD';
    expect(jsonBytes(other).toString()).toBe('{"status":"DELIVRD"}');
  });
});
