/**
 * The token endpoint as a load test sees it, over real HTTP: its own latency (`tokenLatencyMs`,
 * added to the token endpoint only) and the statistics of token requests — per presented API key,
 * known or not, per client IP and in total, with refusals counted apart — which stay small however
 * many random keys a client floods the endpoint with (the 10,000-key flood runs on the recorder
 * itself: 10,000 HTTP round trips would cost seconds of a shared machine for nothing more).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { StatsRecorder, UNKNOWN_KEYS_KEPT, UNKNOWN_KEY_CHARS } from './stats';
import { startSimulator, type RunningSimulator, type SimStats, type SimulatorOptions } from './server';
import { PINNED_NOW, apiGet, call, getToken, queryPath, utcWallClock } from './test-client';

const TOKEN = '/auth/v1/token';
const RANGE = queryPath({
  'date-from': utcWallClock(PINNED_NOW - 86_400_000),
  'date-to': utcWallClock(PINNED_NOW),
  'page-size': 5,
});
const basic = (key: string, secret: string) => `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;
const askToken = (s: RunningSimulator, key: string, secret: string, accept = 'application/json') =>
  call(s, TOKEN, { headers: { Accept: accept, Authorization: basic(key, secret) } });

let sim: RunningSimulator | undefined;
const start = async (opts: SimulatorOptions = {}) => {
  sim = await startSimulator({
    port: 0,
    seed: 3,
    days: 2,
    perDay: 200,
    now: () => PINNED_NOW,
    quiet: true,
    limits: false,
    ...opts,
  });
  return sim;
};
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

/** Runs `task` for 0..count-1 with at most `width` at once. */
async function pool(count: number, width: number, task: (k: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

describe('token latency', () => {
  it('delays token answers by tokenLatencyMs, and only token answers', async () => {
    const s = await start({ tokenLatencyMs: 600 });
    let t0 = performance.now();
    const token = await getToken(s, 'demo');
    expect(performance.now() - t0).toBeGreaterThanOrEqual(590);
    t0 = performance.now();
    expect((await apiGet(s, RANGE, token)).status).toBe(200);
    expect(performance.now() - t0).toBeLessThan(600);
  });

  it('delays refusals as well, and lets token calls wait side by side', async () => {
    const s = await start({ tokenLatencyMs: 300 });
    const t0 = performance.now();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, k) => askToken(s, 'demo', k % 2 ? 'demo-secret' : 'wrong')),
    );
    const elapsed = performance.now() - t0;
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 401, 401, 401, 401, 401]);
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(10 * 300); // not one after another
  });
});

describe('token statistics', () => {
  it('counts token requests and refusals per presented key, known or not, per IP and in total', async () => {
    const s = await start();
    expect((await askToken(s, 'demo', 'demo-secret')).status).toBe(200);
    expect((await askToken(s, 'demo', 'wrong')).status).toBe(401);
    expect((await askToken(s, 'demo', 'demo-secret', 'text/html')).status).toBe(406);
    expect((await askToken(s, 'nobody', 'x')).status).toBe(401);
    expect((await askToken(s, 'nobody', 'y')).status).toBe(401);
    expect((await askToken(s, 'ghost', 'x')).status).toBe(401);
    expect((await call(s, TOKEN, { headers: { Accept: 'application/json' } })).status).toBe(401); // no key presented at all

    const stats = (await call(s, '/__admin/stats')).json<SimStats>();
    expect(stats.accounts.demo).toMatchObject({ tokenRequests: 3, tokenRefused: 2, requests: 0 });
    expect(stats.accounts.nobody).toBeUndefined(); // accounts are accounts; unknown keys are kept apart
    expect(stats.unknownKeys).toEqual({
      tokenRequests: 3,
      tokenRefused: 3,
      untracked: 0,
      keys: { nobody: { tokenRequests: 2, tokenRefused: 2 }, ghost: { tokenRequests: 1, tokenRefused: 1 } },
    });
    expect(stats.ips['127.0.0.1']).toMatchObject({ tokenRequests: 7, tokenRefused: 6 });
    expect(stats.total).toMatchObject({ tokenRequests: 7, tokenRefused: 6, requests: 0 });

    s.resetStats();
    expect(s.stats().unknownKeys).toEqual({ tokenRequests: 0, tokenRefused: 0, untracked: 0, keys: {} });
    expect(s.stats().total).toMatchObject({ tokenRequests: 0, tokenRefused: 0 });
  });

  it('keeps the first 1,000 unknown keys one by one and the rest in the totals (over HTTP)', async () => {
    const s = await start();
    const flood = UNKNOWN_KEYS_KEPT + 200;
    await pool(flood, 20, async (k) => {
      const res = await askToken(s, `random-${k}-${Math.random().toString(36).slice(2)}`, 'x');
      if (res.status !== 401) throw new Error(`flood request ${k}: ${res.status}`);
    });
    expect((await askToken(s, 'demo', 'demo-secret')).status).toBe(200);
    const stats = (await call(s, '/__admin/stats')).json<SimStats>();
    expect(stats.unknownKeys).toMatchObject({ tokenRequests: flood, tokenRefused: flood, untracked: 200 });
    expect(Object.keys(stats.unknownKeys.keys)).toHaveLength(UNKNOWN_KEYS_KEPT);
    expect(stats.total).toMatchObject({ tokenRequests: flood + 1, tokenRefused: flood });
    expect(stats.accounts.demo).toMatchObject({ tokenRequests: 1, tokenRefused: 0 });
  }, 30_000);

  it('stays small and quick after a flood of 10,000 random keys', () => {
    const recorder = new StatsRecorder();
    for (let k = 0; k < 10_000; k++)
      recorder.tokenRequest('10.0.0.1', `${k}-${Math.random().toString(36)}`.repeat(20), false)(401);
    const t0 = performance.now();
    const json = JSON.stringify(recorder.snapshot());
    expect(performance.now() - t0).toBeLessThan(200); // a few ms
    expect(json.length).toBeLessThan(200_000); // ~130 bytes per kept key
    const stats = JSON.parse(json) as SimStats;
    expect(stats.unknownKeys).toMatchObject({ tokenRequests: 10_000, tokenRefused: 10_000, untracked: 9_000 });
    expect(Object.keys(stats.unknownKeys.keys)).toHaveLength(UNKNOWN_KEYS_KEPT);
    expect(stats.total).toMatchObject({ tokenRequests: 10_000, tokenRefused: 10_000 });
  });

  it('cuts long unknown keys, so a kept key costs at most a few dozen bytes', async () => {
    const s = await start();
    const long = 'k'.repeat(5000);
    for (let k = 0; k < 2; k++) expect((await askToken(s, long, 'x')).status).toBe(401);
    const keys = Object.keys(s.stats().unknownKeys.keys);
    expect(keys).toEqual([`${'k'.repeat(UNKNOWN_KEY_CHARS)}…`]);
    expect(s.stats().unknownKeys.keys[keys[0]!]).toEqual({ tokenRequests: 2, tokenRefused: 2 });
  });
});

describe('secret rotation', () => {
  it('takes only the new secret once rotated, keeps issued tokens, and puts every secret back on DELETE', async () => {
    const s = await start();
    const before = await getToken(s, 'demo');
    const rotate = await call(s, '/__admin/secrets', {
      method: 'POST',
      body: JSON.stringify({ apiKey: 'demo', secret: 'demo-rotated' }),
    });
    expect(rotate.status).toBe(200);
    expect((await askToken(s, 'demo', 'demo-secret')).status).toBe(401);
    expect((await askToken(s, 'demo', 'demo-rotated')).status).toBe(200);
    // Other accounts, and tokens issued before, are untouched.
    expect((await askToken(s, 'fuji', 'fuji-secret')).status).toBe(200);
    expect((await apiGet(s, RANGE, before)).status).toBe(200);

    expect(
      (await call(s, '/__admin/secrets', { method: 'POST', body: JSON.stringify({ apiKey: 'nobody', secret: 'x' }) }))
        .status,
    ).toBe(404);
    expect((await call(s, '/__admin/secrets', { method: 'POST', body: '{"apiKey":"demo"}' })).status).toBe(400);
    expect((await call(s, '/__admin/secrets', { method: 'DELETE' })).status).toBe(200);
    expect((await askToken(s, 'demo', 'demo-secret')).status).toBe(200);
    expect((await askToken(s, 'demo', 'demo-rotated')).status).toBe(401);
  });
});
