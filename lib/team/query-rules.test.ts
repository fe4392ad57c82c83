import { describe, expect, it } from 'vitest';
import { refusedParam } from './query-rules';

const params = (p: Record<string, string>) => (name: string) => p[name] ?? null;

describe('what a masked role may ask', () => {
  it('lets an admin ask anything', () => {
    expect(refusedParam('admin', params({ q: '予約', 'da-suffix': '12345678', sort: 'to_address' }))).toBeNull();
  });

  it('refuses free text over messages and numbers, more than the last 4 digits, and a sort by a masked field', () => {
    expect(refusedParam('support', params({ q: '予約' }))?.param).toBe('q');
    expect(refusedParam('support', params({ 'da-suffix': '45678' }))?.param).toBe('da-suffix');
    expect(refusedParam('viewer', params({ sort: 'message_body' }))?.param).toBe('sort');
  });

  it('lets a masked role search by a full number, the last 4 digits and the identifiers', () => {
    expect(
      refusedParam('support', params({ da: '819012345678', 'da-suffix': '5678', 'id-text': 'ORD', sort: 'price' })),
    ).toBeNull();
  });
});
