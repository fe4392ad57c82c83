import { encode } from 'next-auth/jwt';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { decodeOnce } from './decoded-tokens';

const SECRET = 'a-test-secret-0123456789abcdef0123456789';

afterEach(() => {
  vi.useRealTimers();
});

describe('session cookies decoded once', () => {
  it('decode a cookie, then answer it again from memory', async () => {
    const token = await encode({ token: { sid: 's-1', apiKey: 'demo' }, secret: SECRET, maxAge: 3600 });
    const first = await decodeOnce({ token, secret: SECRET });
    expect(first).toMatchObject({ sid: 's-1', apiKey: 'demo' });
    expect(await decodeOnce({ token, secret: SECRET })).toBe(first);
  });

  it('refuse a remembered cookie once it has expired, as the decoder would (15 s of tolerance)', async () => {
    const token = await encode({ token: { sid: 's-2' }, secret: SECRET, maxAge: 60 });
    expect(await decodeOnce({ token, secret: SECRET })).toMatchObject({ sid: 's-2' });
    vi.useFakeTimers({ now: Date.now() + 70_000 });
    expect(await decodeOnce({ token, secret: SECRET })).toMatchObject({ sid: 's-2' });
    vi.setSystemTime(Date.now() + 10_000);
    expect(await decodeOnce({ token, secret: SECRET })).toBeNull();
  });

  it('do not open a cookie under another secret, even one remembered under the right one', async () => {
    const token = await encode({ token: { sid: 's-3' }, secret: SECRET, maxAge: 3600 });
    expect(await decodeOnce({ token, secret: SECRET })).not.toBeNull();
    await expect(decodeOnce({ token, secret: 'another-secret-0123456789abcdef012345678' })).rejects.toThrow();
    await expect(decodeOnce({ token: 'not a token', secret: SECRET })).rejects.toThrow();
    expect(await decodeOnce({ token: '', secret: SECRET })).toBeNull();
  });
});
