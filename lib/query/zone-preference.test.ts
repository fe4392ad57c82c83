import { describe, expect, it } from 'vitest';
import { preferredZoneOf, zoneCookie } from './zone-preference';

describe('the zone a browser remembers', () => {
  it('reads the cookie’s zone, any case, and UTC for anything else', () => {
    expect(preferredZoneOf('JST')).toBe('JST');
    expect(preferredZoneOf('jst')).toBe('JST');
    expect(preferredZoneOf('PST')).toBe('UTC');
    expect(preferredZoneOf(undefined)).toBe('UTC');
  });

  it('is kept a year, for every page, never sent cross-site, and only over HTTPS when the page is', () => {
    expect(zoneCookie('JST', false)).toBe('sms-zone=JST; Path=/; Max-Age=31536000; SameSite=Lax');
    expect(zoneCookie('UTC', true)).toMatch(/; Secure$/);
  });
});
