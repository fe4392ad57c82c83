/**
 * Injected faults, the stats a test reads to judge a client, and the admin endpoints that expose
 * both — including the loopback-only guard.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { handleAdmin, type AdminContext } from './admin';
import { parseFaultSpec } from './faults';
import { isLoopback } from './http';
import { startSimulator, type RunningSimulator, type SimStats } from './server';
import {
  PINNED_NOW,
  apiGet,
  call,
  getToken,
  queryPath,
  utcWallClock,
  type ErrorJson,
  type PageBody,
} from './test-client';

const DAY = 86_400_000;
const RANGE = queryPath({
  'date-from': utcWallClock(PINNED_NOW - DAY),
  'date-to': utcWallClock(PINNED_NOW),
  'page-size': 10,
});

let sim: RunningSimulator;
let token: string;

beforeAll(async () => {
  sim = await startSimulator({
    port: 0,
    seed: 11,
    days: 3,
    perDay: 300,
    now: () => PINNED_NOW,
    limits: false,
    quiet: true,
  });
  token = await getToken(sim, 'demo');
});
afterAll(() => sim.close());
beforeEach(() => {
  sim.clearFaults();
  sim.resetStats();
});

describe('faults', () => {
  it('latencyMs delays the answer', async () => {
    sim.setFaults({ latencyMs: 400, count: 1 });
    const t0 = performance.now();
    expect((await apiGet(sim, RANGE, token)).status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(390);
    const t1 = performance.now();
    await apiGet(sim, RANGE, token);
    expect(performance.now() - t1).toBeLessThan(300); // count: 1 — the next one is not delayed
  });

  it('status answers 500/502/503 JSON for the next `count` requests, then stops', async () => {
    sim.setFaults({ status: 503, count: 2 });
    for (let k = 0; k < 2; k++) {
      const res = await apiGet(sim, RANGE, token);
      expect(res.status).toBe(503);
      expect(res.json<ErrorJson>()).toMatchObject({ status: 503, error: 'Service Unavailable' });
    }
    expect((await apiGet(sim, RANGE, token)).status).toBe(200);
    expect(sim.stats().total).toMatchObject({ requests: 3, errors: 2 });
  });

  it('without count, lasts until cleared', async () => {
    sim.setFaults({ status: 500 });
    for (let k = 0; k < 3; k++) expect((await apiGet(sim, RANGE, token)).status).toBe(500);
    sim.clearFaults();
    expect((await apiGet(sim, RANGE, token)).status).toBe(200);
  });

  it('html turns error bodies into an HTML page, leaving successes alone', async () => {
    sim.setFaults({ status: 502, html: true, count: 1 });
    const res = await apiGet(sim, RANGE, token);
    expect(res.status).toBe(502);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).toMatch(/^<!DOCTYPE html>/);
    expect(() => JSON.parse(res.text)).toThrow();

    sim.setFaults({ html: true });
    const unauthorised = await apiGet(sim, RANGE, 'not-a-token');
    expect(unauthorised.status).toBe(401);
    expect(unauthorised.text).toContain('401 Unauthorized');
    expect((await apiGet(sim, RANGE, token)).json<PageBody>().page).toBe(1);
  });

  it('malformed answers 200 with a body that is not JSON', async () => {
    sim.setFaults({ malformed: true, count: 1 });
    const res = await apiGet(sim, RANGE, token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(() => JSON.parse(res.text)).toThrow();
  });

  it('truncated answers 200 with the JSON cut in the middle', async () => {
    const whole = (await apiGet(sim, RANGE, token)).text;
    sim.setFaults({ truncated: true, count: 1 });
    const res = await apiGet(sim, RANGE, token);
    expect(res.status).toBe(200);
    expect(() => JSON.parse(res.text)).toThrow();
    expect(res.text.length).toBeGreaterThan(0);
    expect(whole.startsWith(res.text)).toBe(true);
    expect(res.text.length).toBeLessThan(whole.length);
  });

  it('shortBy leaves out the last records of a result page and keeps its count', async () => {
    const whole = (await apiGet(sim, RANGE, token)).json<{
      _embedded: { total_found: number; cdrs: { trx_id: string }[] };
    }>();
    sim.setFaults({ shortBy: 3, count: 1 });
    const res = await apiGet(sim, RANGE, token);
    expect(res.status).toBe(200);
    const short = res.json<typeof whole>();
    expect(short._embedded.total_found).toBe(whole._embedded.total_found);
    expect(short._embedded.cdrs.map((c) => c.trx_id)).toEqual(whole._embedded.cdrs.slice(0, -3).map((c) => c.trx_id));
  });

  it('repeatFirst sends a page whose last record is its first again, and keeps its count', async () => {
    const whole = (await apiGet(sim, RANGE, token)).json<{
      _embedded: { total_found: number; cdrs: { trx_id: string }[] };
    }>();
    sim.setFaults({ repeatFirst: true, count: 1 });
    const page = (await apiGet(sim, RANGE, token)).json<typeof whole>();
    const ids = whole._embedded.cdrs.map((c) => c.trx_id);
    expect(page._embedded.total_found).toBe(whole._embedded.total_found);
    expect(page._embedded.cdrs.map((c) => c.trx_id)).toEqual([...ids.slice(0, -1), ids[0]]);
  });

  it('expireTokens expires every token issued so far; new tokens work', async () => {
    const old = await getToken(sim, 'demo');
    sim.setFaults({ expireTokens: true });
    const res = await apiGet(sim, RANGE, old);
    expect(res.status).toBe(401);
    expect(res.json<ErrorJson>().message).toMatch(/expired/);
    expect((await apiGet(sim, RANGE, await getToken(sim, 'demo'))).status).toBe(200);
    token = await getToken(sim, 'demo'); // for the tests after this one
  });

  it('hang never answers; the request leaves flight when the client gives up', async () => {
    sim.setFaults({ hang: true, count: 1 });
    await expect(
      fetch(sim.url + RANGE, { headers: { Authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(300) }),
    ).rejects.toThrow();
    for (let k = 0; k < 50 && sim.stats().total.inFlight > 0; k++) await new Promise((r) => setTimeout(r, 10));
    expect(sim.stats().total).toMatchObject({ requests: 1, inFlight: 0, maxInFlight: 1, errors: 0 });
    expect((await apiGet(sim, RANGE, token)).status).toBe(200);
  });

  it('applies only to query and detail requests, not to tokens', async () => {
    sim.setFaults({ status: 503 });
    expect(await getToken(sim, 'demo')).toMatch(/\./);
  });
});

describe('stats', () => {
  it('counts tokens, queries, details and errors per account, per IP and in total', async () => {
    const fuji = await getToken(sim, 'fuji');
    const page = (await apiGet(sim, RANGE, token)).json<PageBody>();
    await apiGet(sim, page._embedded.cdrs[0]!._links.self.href, token);
    await apiGet(sim, `${RANGE}&page=0`, fuji);
    await call(sim, RANGE, { headers: { Accept: 'application/json' } });
    const stats = sim.stats();
    expect(stats.total).toEqual({
      requests: 4,
      tokenRequests: 1,
      tokenRefused: 0,
      queryRequests: 3,
      detailRequests: 1,
      inFlight: 0,
      maxInFlight: 1,
      rateLimited: 0,
      errors: 2,
    });
    expect(stats.accounts.demo).toMatchObject({ requests: 2, queryRequests: 1, detailRequests: 1, errors: 0 });
    expect(stats.accounts.fuji).toMatchObject({ requests: 1, tokenRequests: 1, errors: 1 });
    expect(stats.ips['127.0.0.1']).toMatchObject({ requests: 4, errors: 2 });
    expect(stats.unknownKeys).toEqual({ tokenRequests: 0, tokenRefused: 0, untracked: 0, keys: {} });
  });
});

describe('admin endpoints', () => {
  it('serve stats, reset and faults over HTTP', async () => {
    await apiGet(sim, RANGE, token);
    const stats = await call(sim, '/__admin/stats');
    expect(stats.json<SimStats>().total.requests).toBe(1);

    const set = await call(sim, '/__admin/faults', {
      method: 'POST',
      body: JSON.stringify({ status: 503, count: 1 }),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(set.status).toBe(200);
    expect((await call(sim, '/__admin/faults')).json<{ faults: unknown }>().faults).toMatchObject({
      status: 503,
      remaining: 1,
    });
    expect((await apiGet(sim, RANGE, token)).status).toBe(503);
    expect((await apiGet(sim, RANGE, token)).status).toBe(200);

    await call(sim, '/__admin/faults', { method: 'POST', body: JSON.stringify({ status: 500 }) });
    expect((await call(sim, '/__admin/faults', { method: 'DELETE' })).status).toBe(200);
    expect((await apiGet(sim, RANGE, token)).status).toBe(200);

    expect((await call(sim, '/__admin/reset', { method: 'POST' })).status).toBe(200);
    expect((await call(sim, '/__admin/stats')).json<SimStats>().total.requests).toBe(0);
  });

  it('refuse bad fault specs and wrong methods', async () => {
    for (const body of [
      'not json',
      '{"status": 404}',
      '{"latencyMs": -1}',
      '{"count": 0}',
      '{"hang": "yes"}',
      '{"explode": true}',
      '[]',
    ]) {
      expect((await call(sim, '/__admin/faults', { method: 'POST', body })).status, body).toBe(400);
    }
    expect((await call(sim, '/__admin/stats', { method: 'POST' })).status).toBe(405);
    expect((await call(sim, '/__admin/reset')).status).toBe(405);
    expect((await call(sim, '/__admin/nothing')).status).toBe(404);
  });

  it('answer only to loopback clients', async () => {
    expect(['127.0.0.1', '127.10.0.3', '::1', '::ffff:127.0.0.1'].map(isLoopback)).toEqual([true, true, true, true]);
    expect(
      ['10.0.0.5', '192.168.1.20', '::ffff:10.0.0.5', '2001:db8::1', '', undefined, '1127.0.0.1'].map(isLoopback),
    ).toEqual([false, false, false, false, false, false, false]);
    // The handler itself, given a request from elsewhere.
    let status = 0;
    let body = '';
    const res = {
      headersSent: false,
      destroyed: false,
      writeHead: (s: number) => (status = s),
      end: (b: string) => (body = b),
    } as unknown as ServerResponse;
    const req = { method: 'GET', socket: { remoteAddress: '::ffff:10.0.0.5' } } as unknown as IncomingMessage;
    const ctx: AdminContext = {
      stats: () => sim.stats(),
      resetStats: () => {},
      setFaults: () => {},
      clearFaults: () => {},
      currentFaults: () => null,
      setSecret: () => true,
      resetSecrets: () => {},
      pageSizeLimit: () => ({ max: 100, over: 'refuse' }),
      setPageSizeLimit: () => {},
      setLimits: () => true,
    };
    expect(await handleAdmin(ctx, req, res, '/__admin/stats')).toBe(403);
    expect(status).toBe(403);
    expect(JSON.parse(body)).toMatchObject({ status: 403 });
  });

  it('parseFaultSpec keeps what it was given', () => {
    expect(
      parseFaultSpec({
        latencyMs: 10,
        status: 502,
        hang: false,
        malformed: true,
        truncated: false,
        shortBy: 2,
        expireTokens: true,
        count: 3,
        html: true,
      }),
    ).toEqual({
      ok: true,
      spec: {
        latencyMs: 10,
        status: 502,
        hang: false,
        malformed: true,
        truncated: false,
        shortBy: 2,
        expireTokens: true,
        count: 3,
        html: true,
      },
    });
    expect(parseFaultSpec({ shortBy: 0 })).toEqual({ ok: false, message: 'shortBy must be a whole number >= 1' });
  });
});
