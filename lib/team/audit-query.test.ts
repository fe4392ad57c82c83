import { describe, expect, it } from 'vitest';
import { auditedQuery } from './audit-query';
import { numberHash } from './number-hash';

describe('a query as the audit log keeps it', () => {
  it('masks every number in it and keeps the full number only as its keyed hash', () => {
    const kept = auditedQuery({
      'date-from': '2026-11-01 00:00:00',
      'date-to': '2026-11-02 00:00:00',
      da: '819012345678',
      'id-text': 'order 8190123456',
      'price-min': '0.00000001',
      columns: 'to_address',
    });
    expect(kept.query).toBe(
      'date-from=2026-11-01+00%3A00%3A00&date-to=2026-11-02+00%3A00%3A00&da=81******5678&id-text=order+81****3456&price-min=0.00000001',
    );
    expect(kept.numberHash).toBe(numberHash('819012345678'));
    expect(kept.query).not.toContain('819012345678');
  });

  it('finds one number however it was written', () => {
    const hash = numberHash('819012345678');
    for (const typed of ['+81 90-1234-5678', '090-1234-5678', '0081 90 1234 5678', ' 819012345678 '])
      expect(numberHash(typed), typed).toBe(hash);
    expect(numberHash('819012345679')).not.toBe(hash);
  });

  it('leaves out what is not the query (an export’s columns, a dry run), and keeps nothing as nothing', () => {
    expect(auditedQuery({ 'date-from': '2026-11-01 00:00:00', columns: ['trx_id'], dryRun: false })).toEqual({
      query: 'date-from=2026-11-01+00%3A00%3A00',
      numberHash: null,
    });
    expect(auditedQuery(null)).toEqual({ query: null, numberHash: null });
  });
});
