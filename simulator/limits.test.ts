/**
 * The limits of seed §8 as read here — 1 in flight per account and per IP; 3 a minute, 10 an hour,
 * 100 a day per account (per IP too with ipRateLimits); sliding windows, refused requests counted —
 * first on the limiter alone with a fake clock, then over HTTP with a pinned clock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, RateLimiter, type Caller, type Limits } from './limits';
import { startSimulator, type RunningSimulator, type SimulatorOptions } from './server';
import {
  API_HEADERS,
  PINNED_NOW,
  apiGet,
  call,
  getToken,
  queryPath,
  utcWallClock,
  type ErrorJson,
} from './test-client';

const DAY = 86_400_000;
const DETAIL = '/cdr/v1/report/cdr/sms/transaction-history/mt/';
const RANGE = queryPath({
  'date-from': utcWallClock(PINNED_NOW - DAY),
  'date-to': utcWallClock(PINNED_NOW),
  'page-size': 5,
});

describe('RateLimiter', () => {
  const make = (limits: Limits = DEFAULT_LIMITS) => {
    const clock = { t: 1_000_000_000 };
    return { clock, limiter: new RateLimiter(limits, () => clock.t) };
  };
  const run = (l: RateLimiter, caller: Caller = { ip: 'a', account: 'demo' }) => {
    const a = l.admit(caller);
    if (a.ok) a.release();
    return a;
  };

  it('admits 3 a minute, then refuses with the time until a 4th would fit', () => {
    const { clock, limiter } = make();
    for (let k = 0; k < 3; k++) {
      expect(run(limiter).ok).toBe(true);
      clock.t += 10_000;
    }
    // Requests at 0, 10 s, 20 s; now 30 s. The refused one counts too, so two must age out: at 70 s.
    const refused = run(limiter);
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.rejection).toMatchObject({ limit: 'per-minute', subject: 'account demo', retryAfterSeconds: 40 });
    clock.t += 30_000; // 60 s: the first has aged out but the window still holds 10 s, 20 s, 30 s
    expect(run(limiter).ok).toBe(false);
    clock.t = 1_000_000_000 + 90_001; // only the refused call at 60 s is still inside (30.001 s, 90.001 s]
    expect(run(limiter).ok).toBe(true);
  });

  it('slides: no fixed-window reset at the top of the minute', () => {
    const { clock, limiter } = make();
    clock.t = 60_000 * 1000 + 59_000; // 59 s into a minute
    for (let k = 0; k < 3; k++) expect(run(limiter).ok).toBe(true);
    clock.t += 2_000; // a new calendar minute, same sliding window
    expect(run(limiter).ok).toBe(false);
  });

  it('admits 10 an hour, 100 a day', () => {
    const { clock, limiter } = make();
    for (let k = 0; k < 10; k++) {
      expect(run(limiter).ok, `request ${k}`).toBe(true);
      clock.t += 61_000;
    }
    const hour = run(limiter);
    expect(hour.ok).toBe(false);
    if (!hour.ok) expect(hour.rejection.limit).toBe('per-hour');

    const fresh = make();
    for (let k = 0; k < 100; k++) {
      expect(run(fresh.limiter).ok, `request ${k}`).toBe(true);
      fresh.clock.t += 361_000;
    }
    const day = run(fresh.limiter);
    expect(day.ok).toBe(false);
    if (!day.ok) {
      expect(day.rejection.limit).toBe('per-day');
      // Oldest two (0 and 361 s) must age out: 361 s + 1 day − now (100 × 361 s).
      expect(day.rejection.retryAfterSeconds).toBe(361 + 86_400 - 100 * 361);
    }
  });

  it('allows one in flight per account and per IP; releasing frees the slot', () => {
    const { limiter } = make();
    const first = limiter.admit({ ip: 'a', account: 'demo' });
    expect(first.ok).toBe(true);
    const sameAccount = limiter.admit({ ip: 'b', account: 'demo' });
    expect(sameAccount.ok).toBe(false);
    if (!sameAccount.ok)
      expect(sameAccount.rejection).toMatchObject({
        limit: 'in-flight',
        subject: 'account demo',
        retryAfterSeconds: 1,
      });
    const sameIp = limiter.admit({ ip: 'a', account: 'fuji' });
    expect(sameIp.ok).toBe(false);
    if (!sameIp.ok)
      expect(sameIp.rejection).toMatchObject({ limit: 'in-flight', subject: 'IP a', retryAfterSeconds: 1 });
    const noAccount = limiter.admit({ ip: 'a', account: null });
    expect(noAccount.ok).toBe(false);
    if (!noAccount.ok) expect(noAccount.rejection.subject).toBe('IP a');
    if (first.ok) first.release();
    expect(limiter.admit({ ip: 'c', account: 'demo' }).ok).toBe(true);
  });

  it('counts the windows per account only by default: other accounts and tokenless calls from the IP pass', () => {
    const { limiter } = make();
    for (let k = 0; k < 3; k++) expect(run(limiter).ok).toBe(true);
    expect(run(limiter).ok).toBe(false);
    for (const account of ['fuji', 'minato', 'support'])
      expect(run(limiter, { ip: 'a', account }).ok, account).toBe(true);
    for (let k = 0; k < 20; k++) expect(run(limiter, { ip: 'a', account: null }).ok).toBe(true);
  });

  it('with ipRateLimits, also counts the windows per client IP, across accounts', () => {
    const { limiter } = make({ ...DEFAULT_LIMITS, ipRateLimits: true });
    for (const account of ['demo', 'fuji', 'minato']) expect(run(limiter, { ip: 'a', account }).ok).toBe(true);
    const refused = run(limiter, { ip: 'a', account: 'support' });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.rejection).toMatchObject({ limit: 'per-minute', subject: 'IP a' });
    expect(run(limiter, { ip: 'b', account: 'support' }).ok).toBe(true);
    expect(run(limiter, { ip: 'a', account: null }).ok).toBe(false); // a tokenless call counts against its IP
  });
});

describe('limits over HTTP', () => {
  let sim: RunningSimulator | undefined;
  let now = PINNED_NOW;
  const start = async (opts: SimulatorOptions = {}) => {
    now = PINNED_NOW;
    sim = await startSimulator({ port: 0, seed: 3, days: 2, perDay: 200, now: () => now, quiet: true, ...opts });
    return sim;
  };
  afterEach(async () => {
    await sim?.close();
    sim = undefined;
  });

  it('answers a second simultaneous request 429 at once (Retry-After: 1)', async () => {
    const s = await start({ latencyMs: 300 }); // keeps the first in flight while the second arrives
    const token = await getToken(s, 'demo');
    const [a, b] = await Promise.all([apiGet(s, RANGE, token), apiGet(s, RANGE, token)]);
    expect([a.status, b.status].sort()).toEqual([200, 429]);
    const refused = a.status === 429 ? a : b;
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.json<ErrorJson>()).toMatchObject({ status: 429, error: 'Too Many Requests', limit: 'in-flight' });
    const stats = s.stats();
    expect(stats.total).toMatchObject({ requests: 2, queryRequests: 2, maxInFlight: 2, rateLimited: 1, inFlight: 0 });
    expect(stats.accounts.demo).toMatchObject({ requests: 2, rateLimited: 1 });
  });

  it('answers the 4th call within a minute 429 with Retry-After, and counts failed calls', async () => {
    const s = await start();
    const token = await getToken(s, 'demo');
    expect((await call(s, RANGE, { headers: API_HEADERS })).status).toBe(401); // no token, no account: no window counts it
    expect((await apiGet(s, `${RANGE}&page=0`, token)).status).toBe(400);
    expect((await apiGet(s, `${DETAIL}${'0'.repeat(32)}`, token)).status).toBe(404);
    expect((await apiGet(s, RANGE, token)).status).toBe(200);
    const fourth = await apiGet(s, RANGE, token);
    expect(fourth.status).toBe(429);
    expect(fourth.headers.get('retry-after')).toBe('60');
    expect(fourth.json<ErrorJson>()).toMatchObject({ limit: 'per-minute', subject: 'account demo' });
    expect(fourth.json<ErrorJson>().message).toMatch(/3 requests per minute/);
    now += 59_000;
    expect((await apiGet(s, RANGE, token)).status).toBe(429); // the refused one counted too
    now += 61_000;
    expect((await apiGet(s, RANGE, token)).status).toBe(200);
  });

  it('lifts its limits on request and puts them back with empty windows (POST /__admin/limits)', async () => {
    const s = await start();
    const token = await getToken(s, 'demo');
    const lift = await call(s, '/__admin/limits', { method: 'POST', body: JSON.stringify({ enabled: false }) });
    expect(lift.status).toBe(200);
    for (let i = 0; i < 6; i++) expect((await apiGet(s, RANGE, token)).status).toBe(200);
    expect((await call(s, '/__admin/limits', { method: 'POST', body: JSON.stringify({ enabled: true }) })).status).toBe(
      200,
    );
    // What was sent while lifted counts in no window: the minute's three are all there.
    for (let i = 0; i < 3; i++) expect((await apiGet(s, RANGE, token)).status).toBe(200);
    expect((await apiGet(s, RANGE, token)).status).toBe(429);
    expect((await call(s, '/__admin/limits', { method: 'POST', body: '{"enabled": "no"}' })).status).toBe(400);
  });

  it('has no limits to lift when it runs without them', async () => {
    const s = await start({ limits: false });
    expect((await call(s, '/__admin/limits', { method: 'POST', body: '{"enabled": false}' })).status).toBe(409);
  });

  it('counts the rate windows per account by default: four accounts on one IP each get their 3 a minute', async () => {
    const s = await start();
    const tokens = await Promise.all(['demo', 'fuji', 'minato', 'support'].map((k) => getToken(s, k)));
    for (let k = 0; k < 3; k++) for (const t of tokens) expect((await apiGet(s, RANGE, t)).status).toBe(200);
    const res = await apiGet(s, RANGE, tokens[0]!);
    expect(res.status).toBe(429);
    expect(res.json<ErrorJson>()).toMatchObject({ limit: 'per-minute', subject: 'account demo' });
    expect(s.stats().total).toMatchObject({ requests: 13, rateLimited: 1 });
  });

  it('keeps one call in flight per IP across accounts by default', async () => {
    const s = await start({ latencyMs: 300 });
    const [demo, fuji] = await Promise.all([getToken(s, 'demo'), getToken(s, 'fuji')]);
    const [a, b] = await Promise.all([apiGet(s, RANGE, demo), apiGet(s, RANGE, fuji)]);
    expect([a.status, b.status].sort()).toEqual([200, 429]);
    expect((a.status === 429 ? a : b).json<ErrorJson>()).toMatchObject({ limit: 'in-flight', subject: 'IP 127.0.0.1' });
  });

  it('with ipRateLimits, counts the windows per IP across accounts too, and not token requests', async () => {
    const s = await start({ limits: { ...DEFAULT_LIMITS, ipRateLimits: true } });
    const tokens = await Promise.all(['demo', 'fuji', 'minato', 'support', 'demo', 'fuji'].map((k) => getToken(s, k)));
    for (const t of tokens.slice(0, 3)) expect((await apiGet(s, RANGE, t)).status).toBe(200);
    const res = await apiGet(s, RANGE, tokens[3]!);
    expect(res.status).toBe(429);
    expect(res.json<ErrorJson>()).toMatchObject({ limit: 'per-minute', subject: 'IP 127.0.0.1' });
    expect(s.stats().total.tokenRequests).toBe(6);
  });

  it('enforces the sliding hour and day on a pinned clock', async () => {
    const s = await start();
    let token = await getToken(s, 'demo');
    for (let k = 0; k < 10; k++) {
      expect((await apiGet(s, RANGE, token)).status, `call ${k}`).toBe(200);
      now += 61_000;
    }
    const hour = await apiGet(s, RANGE, token);
    expect(hour.status).toBe(429);
    expect(hour.json<ErrorJson>().limit).toBe('per-hour');
    // Calls at 0, 61, … 549 s and the refused one at 610 s: two must age out, at 61 s + 1 h.
    expect(hour.headers.get('retry-after')).toBe(String(61 + 3600 - 610));

    s.resetStats(); // clears the windows
    for (let k = 0; k < 100; k++) {
      if (k % 2 === 0) token = await getToken(s, 'demo'); // tokens live 15 minutes
      expect((await apiGet(s, RANGE, token)).status, `call ${k}`).toBe(200);
      now += 361_000;
    }
    const day = await apiGet(s, RANGE, token);
    expect(day.status).toBe(429);
    expect(day.json<ErrorJson>().limit).toBe('per-day');
    expect(Number(day.headers.get('retry-after'))).toBe(361 + 86_400 - 100 * 361);
  });

  it('resetStats clears the windows', async () => {
    const s = await start();
    const token = await getToken(s, 'demo');
    for (let k = 0; k < 3; k++) await apiGet(s, RANGE, token);
    expect((await apiGet(s, RANGE, token)).status).toBe(429);
    s.resetStats();
    expect((await apiGet(s, RANGE, token)).status).toBe(200);
    expect(s.stats().total).toMatchObject({ requests: 1, rateLimited: 0 });
  });

  it('limits: false turns every limit off', async () => {
    const s = await start({ limits: false });
    const token = await getToken(s, 'demo');
    s.setFaults({ latencyMs: 300, count: 5 }); // keeps the five concurrent calls in flight together
    const results = await Promise.all(Array.from({ length: 5 }, () => apiGet(s, RANGE, token)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    for (let k = 0; k < 20; k++) expect((await apiGet(s, RANGE, token)).status).toBe(200);
    expect(s.stats().total).toMatchObject({ requests: 25, maxInFlight: 5, rateLimited: 0 });
  });

  it('honours custom limits', async () => {
    const s = await start({ limits: { maxInFlight: 2, perMinute: 5, perHour: 50, perDay: 500 } });
    const token = await getToken(s, 'demo');
    for (let k = 0; k < 5; k++) expect((await apiGet(s, RANGE, token)).status).toBe(200);
    expect((await apiGet(s, RANGE, token)).status).toBe(429);
  });
});
