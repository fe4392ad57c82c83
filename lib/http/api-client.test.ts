import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, getJson, NO_ANSWER, problemOf, retryAt } from './api-client';

const NOW = Date.parse('2026-11-20T12:00:00Z');

describe('reading errors', () => {
  it('keeps a problem+json body as it is', async () => {
    const res = new Response(
      JSON.stringify({
        type: 'about:blank',
        title: 'Too many requests',
        status: 429,
        retryAfterSeconds: 41,
        limitedBy: 'minute',
        nextCallAt: '2026-11-20T12:00:41Z',
        reason: 'Calls used',
      }),
      { status: 429, headers: { 'Content-Type': 'application/problem+json' } },
    );
    expect(await problemOf(res, NOW)).toEqual({
      type: 'about:blank',
      title: 'Too many requests',
      status: 429,
      retryAfterSeconds: 41,
      limitedBy: 'minute',
      nextCallAt: '2026-11-20T12:00:41Z',
      reason: 'Calls used',
    });
  });

  it('makes a problem of an HTML error page, taking Retry-After from the header', async () => {
    const res = new Response('<html>Bad gateway</html>', {
      status: 503,
      statusText: 'Service Unavailable',
      headers: { 'Retry-After': '12' },
    });
    expect(await problemOf(res, NOW)).toEqual({
      type: 'about:blank',
      title: 'Service Unavailable',
      status: 503,
      retryAfterSeconds: 12,
    });
  });

  it('knows when to retry: nextCallAt first, then Retry-After', () => {
    const e1 = new ApiError({
      type: 'x',
      title: 't',
      status: 429,
      nextCallAt: '2026-11-20T12:00:41Z',
      retryAfterSeconds: 99,
    });
    expect(retryAt(e1, NOW)).toBe(NOW + 41_000);
    const e2 = new ApiError({ type: 'x', title: 't', status: 503, retryAfterSeconds: 5 });
    expect(retryAt(e2, NOW)).toBe(NOW + 5_000);
    expect(retryAt(new ApiError({ type: 'x', title: 't', status: 502 }), NOW)).toBeNull();
  });
});

describe('getJson', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('answers the JSON of a 200', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{"a":1}', { status: 200 })),
    );
    expect(await getJson('/api/x')).toEqual({ a: 1 });
  });

  it('throws an ApiError for a problem, and a "no answer" ApiError when the network fails', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{"title":"Not found","status":404}', { status: 404 })),
    );
    await expect(getJson('/api/x')).rejects.toMatchObject({ status: 404, message: 'Not found' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('fetch failed');
      }),
    );
    await expect(getJson('/api/x')).rejects.toMatchObject({ status: NO_ANSWER });
  });
});

describe('a request to the dashboard', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('never takes its answer from the browser’s HTTP cache (a 304 would hand back an old quota and source)', async () => {
    const fetch = vi.fn(
      async () => new Response('{}', { status: 200, headers: { 'Content-Type': 'application/json' } }),
    );
    vi.stubGlobal('fetch', fetch);
    await getJson('/api/transactions?x=1');
    expect(fetch).toHaveBeenCalledWith('/api/transactions?x=1', expect.objectContaining({ cache: 'no-store' }));
  });
});
