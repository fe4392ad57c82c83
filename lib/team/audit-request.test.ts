import { describe, expect, it } from 'vitest';
import { parseAuditRequest } from './audit-request';

const parse = (p: Record<string, string>) => parseAuditRequest(new URLSearchParams(p));

describe("the audit log's parameters", () => {
  it('reads days and times in the zone given, a day as `to` to its last instant', () => {
    expect(
      parse({ from: '2026-11-01', to: '2026-11-01', tz: 'JST', action: 'reveal', number: '090-1234-5678' }),
    ).toEqual({
      ok: true,
      request: {
        from: Date.parse('2026-10-31T15:00:00Z'),
        to: Date.parse('2026-11-01T15:00:00Z') - 1,
        action: 'reveal',
        number: '819012345678',
      },
    });
    expect(parse({ from: '2026-11-01 09:30:00' })).toMatchObject({
      request: { from: Date.parse('2026-11-01T09:30:00Z') },
    });
  });

  it('names every wrong parameter, and one it does not take', () => {
    const result = parse({ from: 'yesterday', action: 'delete', number: '12', before: 'x', tz: 'PST', actr: 'sora' });
    expect(result.ok).toBe(false);
    expect(Object.keys(result.ok ? {} : result.errors).sort()).toEqual([
      'action',
      'actr',
      'before',
      'from',
      'number',
      'tz',
    ]);
  });
});
