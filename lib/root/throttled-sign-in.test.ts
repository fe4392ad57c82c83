/**
 * A throttled sign-in's log line names the key and the client's address by their keyed
 * fingerprints, never as they are: an address is personal data, and a key the upstream has not
 * accepted may be a secret pasted into the wrong field.
 */
import { NextRequest } from 'next/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { logFingerprint } from '../auth/server';
import type { Services } from './services';
import { throttledSignIn } from './throttled-sign-in';

const SECRET = 'test-only-secret-0123456789abcdef0123456789abcdef';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe('a throttled sign-in', () => {
  it('is logged with fingerprints of the key and the address', async () => {
    vi.stubEnv('NEXTAUTH_SECRET', SECRET);
    vi.stubEnv('LOG_LEVEL', 'info');
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    const services = {
      config: { TRUST_PROXY_HOPS: 1, NEXTAUTH_URL: 'http://localhost:3000' },
      signInThrottle: { begin: async () => ({ go: false, by: 'address', retryAfterMs: 60_000 }) },
    } as unknown as Services;
    const req = new NextRequest('http://localhost:3000/api/auth/callback/credentials', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '203.0.113.77' },
      body: new URLSearchParams({ apiKey: 'typed-key', apiSecret: 'x', csrfToken: 't' }).toString(),
    });
    const res = await throttledSignIn(req, services, async () => new Response('signed in'));
    expect(res.status).toBe(429);
    const line = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.event === 'signin.throttled');
    expect(line).toMatchObject({
      key: logFingerprint('typed-key', SECRET),
      address: logFingerprint('203.0.113.77', SECRET),
      by: 'address',
    });
    expect(lines.join('')).not.toContain('203.0.113.77');
    expect(lines.join('')).not.toContain('typed-key');
  });
});
