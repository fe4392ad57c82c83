/**
 * A 429 from the upstream, its token endpoint or its query API, holds the account: against a real
 * HTTP server that answers every token request 429 with Retry-After, the gateway asks once, and
 * then neither a person's query (which needs a token) nor a sign-in asks again until the wait ends.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeLedger } from '../../tests/support/fake-ledger';
import { configSchema } from '../config';
import { QuotaExceededError } from '../governor/quota-errors';
import { memoryBackend } from '../governor/memory-backend';
import { UpstreamError } from './errors';
import { SAMPLE_JWT } from './test-fixtures';
import { createGateway } from './gateway';
import { baseOf } from '../query/wire';

let server: http.Server;
let base = '';
let tokenRequests = 0;
let queryRequests = 0;
/** Whether the token endpoint answers 429 too (else it issues tokens, and only queries are refused). */
let tokens429 = true;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const isToken = req.url?.startsWith('/auth/v1/token') ?? false;
    if (isToken) tokenRequests += 1;
    else queryRequests += 1;
    if (isToken && !tokens429) {
      const validUntil = new Date(Date.now() + 15 * 60_000)
        .toISOString()
        .slice(0, 19)
        .replace('T', ' ')
        .replace(/-/g, '/');
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          account: { account_id: 'demo', product: 'sms' },
          jwt_token: SAMPLE_JWT,
          token_valid_until: validUntil,
        }),
      );
      return;
    }
    // Slow enough that a second call, had it been let go, would be sent before this one's answer.
    setTimeout(() => {
      res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '40' });
      res.end(JSON.stringify({ status: 429, message: 'rate limit active' }));
    }, 50);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function gateway() {
  // A call may wait for its turn (the test's second query does), not for a window.
  const config = {
    ...configSchema.parse({
      UPSTREAM_BASE_URL: base,
      UPSTREAM_QUEUE_WAIT_MS: '2000',
      UPSTREAM_LIMIT_PER_MINUTE: '100',
      UPSTREAM_LIMIT_PER_HOUR: '100',
    }),
    dataDir: '/nonexistent',
  };
  return createGateway(config, memoryBackend(fakeLedger(), 1));
}

const account = {
  apiKey: 'demo',
  enterpriseId: null,
  credentials: async () => ({ apiKey: 'demo', secret: 'demo-secret' }),
};
const base1 = baseOf({
  'date-from': '2026-11-01 00:00:00',
  'date-to': '2026-11-02 00:00:00',
  'page-size': '25',
  tz: 'UTC',
});

describe('a 429 from the token endpoint', () => {
  it('holds the account: its next query waits for Retry-After without asking for a token again', async () => {
    const g = gateway();
    const before = tokenRequests;
    const first = await g
      .query(account, { base: base1, page: 1, sortOrder: 'asc' }, 'interactive')
      .catch((e: unknown) => e);
    expect(first).toBeInstanceOf(UpstreamError);
    expect((first as UpstreamError).kind).toBe('rate_limited');
    const again = await g
      .query(account, { base: base1, page: 1, sortOrder: 'asc' }, 'interactive')
      .catch((e: unknown) => e);
    expect(again).toBeInstanceOf(QuotaExceededError);
    expect((again as QuotaExceededError).limitedBy).toBe('upstream');
    expect(Math.round((again as QuotaExceededError).retryAfterMs / 1000)).toBeGreaterThanOrEqual(39);
    expect(tokenRequests - before).toBe(1);
    // Another account is not held.
    const other = { ...account, apiKey: 'fuji', credentials: async () => ({ apiKey: 'fuji', secret: 'fuji-secret' }) };
    expect(
      await g
        .query(other, { base: base1, page: 1, sortOrder: 'asc' }, 'interactive')
        .catch((e: unknown) => (e as UpstreamError).kind),
    ).toBe('rate_limited');
    expect(tokenRequests - before).toBe(2);
  });

  it('from the query API, holds the account: a call queued behind it is not sent', async () => {
    tokens429 = false;
    try {
      const g = gateway();
      const before = queryRequests;
      const ask = (page: number) =>
        g.query(account, { base: base1, page, sortOrder: 'asc' }, 'interactive').catch((e: unknown) => e);
      const waiting = { ...account };
      const [first, second] = await Promise.all([
        ask(1),
        (async () => {
          await new Promise((r) => setTimeout(r, 10)); // queued behind the first
          return g
            .query(waiting, { base: base1, page: 2, sortOrder: 'asc' }, 'interactive', undefined)
            .catch((e: unknown) => e);
        })(),
      ]);
      expect((first as UpstreamError).kind).toBe('rate_limited');
      expect(second).toBeInstanceOf(QuotaExceededError);
      expect((second as QuotaExceededError).limitedBy).toBe('upstream');
      expect(queryRequests - before).toBe(1);
    } finally {
      tokens429 = true;
    }
  });

  it('holds every sign-in after a sign-in’s 429', async () => {
    const g = gateway();
    const before = tokenRequests;
    expect(
      await g
        .verifyCredentials('demo', 'demo-secret', { knownAddress: true })
        .catch((e: unknown) => (e as UpstreamError).kind),
    ).toBe('rate_limited');
    const next = await g.verifyCredentials('fuji', 'fuji-secret', { knownAddress: false }).catch((e: unknown) => e);
    expect(next).toBeInstanceOf(QuotaExceededError);
    expect(tokenRequests - before).toBe(1);
  });
});
