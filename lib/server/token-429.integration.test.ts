/**
 * A 429 from the upstream's token endpoint is honoured like one from its query API: against a real
 * HTTP server that answers every token request 429 with Retry-After, the gateway asks once, and
 * then neither a person's query (which needs a token) nor a sign-in asks again until the wait ends.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeLedger } from '../../tests/support/fake-ledger';
import { configSchema } from '../config';
import { QuotaExceededError } from '../governor/governor';
import { memoryBackend } from '../governor/memory-backend';
import { UpstreamError } from '../upstream';
import { createGateway } from './upstream-gateway';

let server: http.Server;
let base = '';
let tokenRequests = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url?.startsWith('/auth/v1/token')) tokenRequests += 1;
    res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '40' });
    res.end(JSON.stringify({ status: 429, message: 'rate limit active' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function gateway() {
  const config = { ...configSchema.parse({ UPSTREAM_BASE_URL: base, UPSTREAM_QUEUE_WAIT_MS: '0' }), dataDir: '/nonexistent' };
  return createGateway(config, memoryBackend(fakeLedger(), 1));
}

const account = { apiKey: 'demo', enterpriseId: null, credentials: async () => ({ apiKey: 'demo', secret: 'demo-secret' }) };
const base1 = { params: { 'date-from': '2026-11-01 00:00:00', 'date-to': '2026-11-02 00:00:00', 'page-size': '25', tz: 'UTC' }, key: 'k' };

describe('a 429 from the token endpoint', () => {
  it('holds the account: its next query waits for Retry-After without asking for a token again', async () => {
    const g = gateway();
    const before = tokenRequests;
    const first = await g.query(account, { base: base1, page: 1, sortOrder: 'asc' }, 'interactive').catch((e: unknown) => e);
    expect(first).toBeInstanceOf(UpstreamError);
    expect((first as UpstreamError).kind).toBe('rate_limited');
    const again = await g.query(account, { base: base1, page: 1, sortOrder: 'asc' }, 'interactive').catch((e: unknown) => e);
    expect(again).toBeInstanceOf(QuotaExceededError);
    expect((again as QuotaExceededError).limitedBy).toBe('upstream');
    expect(Math.round((again as QuotaExceededError).retryAfterMs / 1000)).toBeGreaterThanOrEqual(39);
    expect(tokenRequests - before).toBe(1);
    // Another account is not held.
    const other = { ...account, apiKey: 'fuji', credentials: async () => ({ apiKey: 'fuji', secret: 'fuji-secret' }) };
    expect(await g.query(other, { base: base1, page: 1, sortOrder: 'asc' }, 'interactive').catch((e: unknown) => (e as UpstreamError).kind)).toBe('rate_limited');
    expect(tokenRequests - before).toBe(2);
  });

  it('holds every sign-in after a sign-in’s 429', async () => {
    const g = gateway();
    const before = tokenRequests;
    expect(await g.verifyCredentials('demo', 'demo-secret').catch((e: unknown) => (e as UpstreamError).kind)).toBe('rate_limited');
    const next = await g.verifyCredentials('fuji', 'fuji-secret').catch((e: unknown) => e);
    expect(next).toBeInstanceOf(QuotaExceededError);
    expect(tokenRequests - before).toBe(1);
  });
});
