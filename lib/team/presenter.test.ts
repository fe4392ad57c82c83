import { describe, expect, it } from 'vitest';
import type { Cdr } from '../cdr/schema';
import { jsonBytes, keepJson } from '../http/json-text';
import { presenterFor } from './presenter';

const record = (n: number) =>
  ({
    trx_id: String(n).padStart(32, '0'),
    to_address: `8190${String(n).padStart(8, '0')}`,
    from_address: '815012345678',
    message_body: `ご予約の確認コード ${n}`,
    unencrypted_message_body: '',
  }) as unknown as Cdr;

const page = () => ({
  _embedded: { cdrs: [record(1), record(2)], total_found: 2 },
  _meta: { source: 'cache' },
});

describe('the presenter', () => {
  it('gives an admin the records as they are', () => {
    const p = page();
    const shown = presenterFor('admin').page(p);
    expect(shown).toBe(p);
    expect(presenterFor('admin').masked).toBe(false);
  });

  it('masks every record for support and viewer alike, and says so in _meta', () => {
    for (const role of ['support', 'viewer'] as const) {
      const shown = presenterFor(role).page(page());
      expect(shown._meta).toEqual({ source: 'cache', masked: true });
      expect(shown._embedded.total_found).toBe(2);
      expect(shown._embedded.cdrs.map((c) => [c.to_address, c.from_address, c.message_body])).toEqual([
        ['81******0001', '81******5678', ''],
        ['81******0002', '81******5678', ''],
      ]);
    }
  });

  it('masks a record once and keeps its JSON, as a presented record is kept', () => {
    const cdr = record(7);
    keepJson(cdr);
    const support = presenterFor('support');
    const first = support.record(cdr);
    expect(support.record(cdr)).toBe(first);
    expect(jsonBytes(first)).toBe(jsonBytes(first));
    expect(jsonBytes(first).toString()).not.toContain('81900000007');
  });

  it('masks a numeric sender in Insights, not a brand', () => {
    const answer = {
      bySender: [{ from_address: '815012345678' }, { from_address: 'FujiLogi' }],
      _meta: { source: 'history' },
    };
    expect(presenterFor('viewer').insights(answer)).toEqual({
      bySender: [{ from_address: '81******5678' }, { from_address: 'FujiLogi' }],
      _meta: { source: 'history', masked: true },
    });
  });
});
