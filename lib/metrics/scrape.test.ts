/**
 * GET /api/metrics' gate: no endpoint without METRICS_TOKEN, the token as a bearer or nothing, and
 * Prometheus' text format with the metrics once let in. Route labels are patterns.
 */
import { describe, expect, it } from 'vitest';
import { countCacheAnswer, countUpstreamCall, observeHttpRequest } from './record';
import { routeLabeller } from './route-label';
import { bearerMatches, scrapeResponse } from './scrape';

const TOKEN = 'a-scrape-token-of-some-length';

describe('the metrics endpoint', () => {
  it('does not exist without METRICS_TOKEN', async () => {
    expect((await scrapeResponse(`Bearer ${TOKEN}`, undefined, 'en')).status).toBe(404);
  });

  it('wants the token as a bearer, and says how without saying what was wrong', async () => {
    for (const header of [
      null,
      '',
      'Bearer',
      `Bearer ${TOKEN}x`,
      `Basic ${TOKEN}`,
      `Bearer ${TOKEN.slice(1)}`,
      TOKEN,
    ]) {
      const res = await scrapeResponse(header, TOKEN, 'en');
      expect(res.status, String(header)).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      expect(((await res.json()) as { detail: string }).detail).toContain('METRICS_TOKEN');
    }
    expect(bearerMatches(`bearer  ${TOKEN} `, TOKEN)).toBe(true);
  });

  it('answers the text format with what the process counted', async () => {
    countUpstreamCall('interactive', '2xx');
    countUpstreamCall('sync', 'timeout');
    countCacheAnswer('history', 0);
    countCacheAnswer('cache', 0);
    countCacheAnswer('upstream', 1);
    observeHttpRequest('/api/transactions/0123456789abcdef0123456789abcdef?tz=JST', 200, 0.012);
    const res = await scrapeResponse(`Bearer ${TOKEN}`, TOKEN, 'en');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).toContain('sms_upstream_calls_total{class="interactive",outcome="2xx"} 1');
    expect(text).toContain('sms_upstream_calls_total{class="sync",outcome="timeout"} 1');
    for (const result of ['hit', 'miss', 'local'])
      expect(text).toContain(`sms_cache_requests_total{result="${result}"} 1`);
    expect(text).toMatch(/sms_http_request_duration_seconds_count\{route="other",status="200"\} 1/);
    expect(text).not.toContain('0123456789abcdef');
    expect(text).toContain('process_resident_memory_bytes');
  });
});

describe('a route label', () => {
  const label = routeLabeller({
    staticRoutes: [{ page: '/' }, { page: '/api/transactions' }, { page: '/transactions' }],
    dynamicRoutes: [
      { page: '/api/transactions/[trxId]', regex: '^/api/transactions/([^/]+?)(?:/)?$' },
      { page: '/api/auth/[...nextauth]', regex: '^/api/auth/(.+?)(?:/)?$' },
    ],
  });

  it('is the pattern of the route that served it, never the path as asked', () => {
    expect(label('/api/transactions')).toBe('/api/transactions');
    expect(label('/api/transactions/')).toBe('/api/transactions');
    expect(label('/api/transactions/0123456789abcdef0123456789abcdef')).toBe('/api/transactions/[trxId]');
    expect(label('/api/auth/callback/credentials')).toBe('/api/auth/[...nextauth]');
    expect(label('/transactions.rsc')).toBe('/transactions');
    expect(label('/_next/static/chunks/abc.js')).toBe('/_next/static');
    expect(label('/wp-login.php')).toBe('other');
    expect(label('/')).toBe('/');
  });
});
