import { NextRequest } from 'next/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { log } from '../log';
import * as route from '../../app/api/auth/[...nextauth]/route';

// The store locked past its wait, as a sign-in under a flood once met it.
vi.mock('@/lib/root/services', () => ({
  getServices: async () => {
    throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
  },
}));

const context = (...nextauth: string[]) => ({ params: Promise.resolve({ nextauth }) });

describe("next-auth's route, before next-auth", () => {
  afterEach(() => vi.restoreAllMocks());

  it("takes no log lines from browsers: next-auth's _log is answered 204 and nothing is written", async () => {
    const warn = vi.spyOn(log, 'warn');
    const error = vi.spyOn(log, 'error');
    const req = new NextRequest('http://dashboard.test/api/auth/_log', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'level=error&code=FORGED_signin.ok_account_support',
    });
    const res = await route.POST(req, context('_log'));
    expect(res.status).toBe(204);
    expect(warn).not.toHaveBeenCalled();
    expect(error).not.toHaveBeenCalled();
  });

  it('answers a GET of the credentials callback 405 with Allow: POST, not a 500', async () => {
    const res = await route.GET(
      new NextRequest('http://dashboard.test/api/auth/callback/credentials'),
      context('callback', 'credentials'),
    );
    expect(res.status).toBe(405);
    expect(res.headers.get('Allow')).toBe('OPTIONS, POST');
    expect((await res.json()).title).toBe('GET is not answered here');
  });

  it('answers a sign-in that meets the store out of reach 503 with Retry-After, not a bare 500', async () => {
    const req = new NextRequest('http://dashboard.test/api/auth/callback/credentials', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'csrfToken=x&apiKey=demo&apiSecret=demo-secret',
    });
    const res = await route.POST(req, context('callback', 'credentials'));
    expect(res.status).toBe(503);
    expect(res.headers.get('Retry-After')).toBe('15');
    expect((await res.json()).type).toBe('/problems/store-unavailable');
  });
});
