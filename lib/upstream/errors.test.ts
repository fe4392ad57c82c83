import { describe, expect, it } from 'vitest';
import { isRetryable, kindForStatus, UpstreamError } from './errors';
import { parseRetryAfter } from './retry-after';

describe('UpstreamError', () => {
  it('carries kind, and status/retryAfterMs/upstreamMessage only when known', () => {
    const e = new UpstreamError('rate_limited', 'slow', { status: 429, retryAfterMs: 1000 });
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe('UpstreamError');
    expect(e).toMatchObject({ kind: 'rate_limited', status: 429, retryAfterMs: 1000 });
    expect('upstreamMessage' in e).toBe(false);
    expect('status' in new UpstreamError('timeout', 't')).toBe(false);
  });

  it('isRetryable: timeout, network, unavailable, rate_limited', () => {
    const yes = ['timeout', 'network', 'unavailable', 'rate_limited'] as const;
    const no = ['bad_request', 'unauthorized', 'forbidden', 'not_found', 'malformed'] as const;
    for (const k of yes) expect(isRetryable(new UpstreamError(k, 'x'))).toBe(true);
    for (const k of no) expect(isRetryable(new UpstreamError(k, 'x'))).toBe(false);
    expect(isRetryable(new Error('x'))).toBe(false);
    expect(isRetryable(undefined)).toBe(false);
  });

  it('kindForStatus follows the documented codes, then the class of the status', () => {
    expect(kindForStatus(405)).toBe('bad_request');
    expect(kindForStatus(422)).toBe('bad_request');
    expect(kindForStatus(599)).toBe('unavailable');
    expect(kindForStatus(304)).toBe('malformed');
  });
});

describe('parseRetryAfter', () => {
  const now = Date.UTC(2025, 9, 8, 12, 0, 0);
  it('reads delay-seconds', () => {
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter(' 30 ', now)).toBe(30_000);
    expect(parseRetryAfter('1.5', now)).toBe(1500);
  });
  it('reads an HTTP-date, never negative', () => {
    expect(parseRetryAfter('Wed, 08 Oct 2025 12:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('Wed, 08 Oct 2025 11:00:00 GMT', now)).toBe(0);
  });
  it('absent or unreadable → undefined', () => {
    for (const v of [null, undefined, '', 'soon', '-1', '1e3']) expect(parseRetryAfter(v, now)).toBeUndefined();
  });
});
