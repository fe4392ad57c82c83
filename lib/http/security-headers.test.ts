import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, newNonce, strictTransportSecurity } from './security-headers';

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(';').map((d) => {
      const [name, ...values] = d.trim().split(/\s+/);
      return [name as string, values];
    }),
  );
}

describe('contentSecurityPolicy', () => {
  const production = directives(
    contentSecurityPolicy({ nonce: 'abc123==', development: false, publicUrl: 'http://localhost:3000' }),
  );

  it('lets only nonced scripts run in production, without eval', () => {
    expect(production.get('script-src')).toEqual(["'self'", "'nonce-abc123=='", "'strict-dynamic'"]);
    expect([...production.values()].flat()).not.toContain("'unsafe-eval'");
  });

  it('allows inline style attributes but not inline style elements', () => {
    expect(production.get('style-src')).toEqual(["'self'", "'nonce-abc123=='"]);
    expect(production.get('style-src-attr')).toEqual(["'unsafe-inline'"]);
  });

  it('closes framing, plugins, base and form targets, and connections elsewhere', () => {
    expect(production.get('frame-ancestors')).toEqual(["'none'"]);
    expect(production.get('object-src')).toEqual(["'none'"]);
    expect(production.get('base-uri')).toEqual(["'self'"]);
    expect(production.get('form-action')).toEqual(["'self'"]);
    expect(production.get('connect-src')).toEqual(["'self'"]);
    expect(production.get('default-src')).toEqual(["'self'"]);
    expect(production.has('upgrade-insecure-requests')).toBe(false);
  });

  it('allows eval and inline style elements in development only', () => {
    const dev = directives(contentSecurityPolicy({ nonce: 'n', development: true }));
    expect(dev.get('script-src')).toContain("'unsafe-eval'");
    expect(dev.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
  });

  it('upgrades insecure requests when served over https', () => {
    expect(
      directives(contentSecurityPolicy({ nonce: 'n', development: false, publicUrl: 'https://sms.example.com' })).has(
        'upgrade-insecure-requests',
      ),
    ).toBe(true);
  });
});

describe('strictTransportSecurity', () => {
  it('is sent only when the public URL is https', () => {
    expect(strictTransportSecurity('https://sms.example.com')).toMatch(/^max-age=\d{8}; includeSubDomains$/);
    expect(strictTransportSecurity('http://localhost:3000')).toBeNull();
    expect(strictTransportSecurity(undefined)).toBeNull();
    expect(strictTransportSecurity('not a url')).toBeNull();
  });
});

describe('newNonce', () => {
  it('is 128 random bits, base64, different every time', () => {
    const nonces = new Set(Array.from({ length: 100 }, newNonce));
    expect(nonces.size).toBe(100);
    for (const nonce of nonces) expect(Buffer.from(nonce, 'base64')).toHaveLength(16);
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });
});
