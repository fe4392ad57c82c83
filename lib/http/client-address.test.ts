import { describe, expect, it } from 'vitest';
import { clientAddress, normalise } from './client-address';

describe('the client address', () => {
  it('is the peer with no proxy trusted, whatever X-Forwarded-For says', () => {
    expect(clientAddress('203.0.113.66', '192.0.2.10', 0)).toBe('192.0.2.10');
    expect(clientAddress(null, '192.0.2.10', 0)).toBe('192.0.2.10');
    expect(clientAddress('203.0.113.66', null, 0)).toBeNull();
  });

  it('is the N-th address from the right behind N proxies, never what the client wrote left of it', () => {
    expect(clientAddress('198.51.100.4', '10.0.0.2', 1)).toBe('198.51.100.4');
    expect(clientAddress('203.0.113.66, 198.51.100.4', '10.0.0.2', 1)).toBe('198.51.100.4');
    expect(clientAddress('203.0.113.66, 198.51.100.4, 10.0.0.3', '10.0.0.2', 2)).toBe('198.51.100.4');
    // Fewer hops than proxies configured: the request went round them; its peer is what is known.
    expect(clientAddress('198.51.100.4', '10.0.0.2', 2)).toBe('10.0.0.2');
    expect(clientAddress(null, '10.0.0.2', 1)).toBe('10.0.0.2');
    // A hop that is not an address is not one.
    expect(clientAddress('203.0.113.66, not-an-ip', '10.0.0.2', 1)).toBeNull();
  });

  it('reads the forms proxies write, and counts an IPv6 client by its /64', () => {
    expect(normalise('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(normalise('198.51.100.4:51234')).toBe('198.51.100.4');
    expect(normalise('[2001:db8::1]:443')).toBe('2001:db8:0:0::/64');
    expect(normalise('2001:0db8:0001:0002:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(normalise('2001:db8:1:2::ffff')).toBe(normalise('2001:db8:1:2:9:9:9:9'));
    expect(normalise('::1')).toBe('0:0:0:0::/64');
    expect(normalise('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(normalise('unknown')).toBeNull();
    expect(normalise('')).toBeNull();
  });
});
