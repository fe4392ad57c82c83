import { describe, expect, it } from 'vitest';
import type { TransactionsPage } from './api';
import type { Cdr } from '../cdr/schema';
import { sampleCdr } from '../upstream/test-fixtures';
import { etagOf, notModified } from './etag';
import { keepJson } from '../http/json-text';

function page(cdrs: Cdr[], opts: { self?: string; total?: number; age?: number } = {}): TransactionsPage {
  return {
    page_size: 25,
    page: 1,
    _links: {
      self: { href: opts.self ?? '/api/transactions?page=1' },
      first: { href: '/api/transactions?page=1' },
      last: { href: '/api/transactions?page=1' },
    },
    _embedded: { total_found: opts.total ?? cdrs.length, cdrs },
    _meta: { source: 'cache', calls: 0, ageSeconds: opts.age ?? 0 } as never,
  };
}

const record = (overrides: Record<string, unknown> = {}) => {
  const cdr = sampleCdr(overrides) as Cdr;
  keepJson(cdr);
  return cdr;
};

describe('the ETag of a page', () => {
  it('stays the same for the same records and query, whatever _meta says', () => {
    const cdrs = [record({ trx_id: 'a'.repeat(32) }), record({ trx_id: 'b'.repeat(32) })];
    // The same records read again (other objects, same content) and an older answer's _meta.
    const again = [record({ trx_id: 'a'.repeat(32) }), record({ trx_id: 'b'.repeat(32) })];
    expect(etagOf(page(again, { age: 120 }))).toBe(etagOf(page(cdrs)));
    expect(etagOf(page(cdrs))).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/);
  });

  it('changes when a record, the order, the total or the query changes', () => {
    const a = record({ trx_id: 'a'.repeat(32) });
    const b = record({ trx_id: 'b'.repeat(32) });
    const tag = etagOf(page([a, b]));
    expect(etagOf(page([a, record({ trx_id: 'b'.repeat(32), delivery_status: 'UNDELIV' })]))).not.toBe(tag);
    expect(etagOf(page([b, a]))).not.toBe(tag);
    expect(etagOf(page([a, b], { total: 3 }))).not.toBe(tag);
    expect(etagOf(page([a, b], { self: '/api/transactions?page=1&tz=JST' }))).not.toBe(tag);
  });

  it('follows a record that is not declared unchanging when it changes', () => {
    const loose = sampleCdr({ trx_id: 'c'.repeat(32) }) as Cdr;
    const tag = etagOf(page([loose]));
    (loose as Record<string, unknown>).delivery_status = 'EXPIRED';
    expect(etagOf(page([loose]))).not.toBe(tag);
  });
});

describe('If-None-Match', () => {
  const tag = 'W/"abc"';
  const req = (value?: string) =>
    new Request(
      'http://localhost/api/transactions',
      value === undefined ? {} : { headers: { 'If-None-Match': value } },
    );

  it('matches the tag weakly, in a list, or as *', () => {
    expect(notModified(req('W/"abc"'), tag)).toBe(true);
    expect(notModified(req('"abc"'), tag)).toBe(true);
    expect(notModified(req('"x", W/"abc"'), tag)).toBe(true);
    expect(notModified(req('*'), tag)).toBe(true);
  });

  it('does not match another tag or no header', () => {
    expect(notModified(req('W/"abd"'), tag)).toBe(false);
    expect(notModified(req(), tag)).toBe(false);
  });
});
