import { describe, expect, it } from 'vitest';
import { parseTokenValidUntil } from './token-response';

describe('parseTokenValidUntil', () => {
  const at = Date.UTC(2025, 9, 8, 12, 15, 0);
  it('reads both documented formats as UTC', () => {
    expect(parseTokenValidUntil('2025/10/08 12:15:00')).toBe(at);
    expect(parseTokenValidUntil('2025-10-08 12:15:00')).toBe(at);
  });
  it('tolerates T, fractions and offsets', () => {
    expect(parseTokenValidUntil('2025-10-08T12:15:00.000Z')).toBe(at);
    expect(parseTokenValidUntil('2025-10-08T21:15:00+0900')).toBe(at);
    expect(parseTokenValidUntil('2025-10-08 07:15:00-05:00')).toBe(at);
  });
  it('reads an epoch in seconds or milliseconds', () => {
    expect(parseTokenValidUntil(at / 1000)).toBe(at);
    expect(parseTokenValidUntil(at)).toBe(at);
  });
  it('null for missing or unreadable values, impossible dates included', () => {
    for (const v of [undefined, null, '', '08/10/2025 12:15', '2025/13/01 00:00:00', '2025/02/30 00:00:00', -1]) {
      expect(parseTokenValidUntil(v)).toBeNull();
    }
  });
});
