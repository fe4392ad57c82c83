/**
 * Looking a transaction up, end to end over real HTTP against the simulator: what a lookup costs in
 * upstream calls, counted by the simulator itself, and whose records a session may be shown.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseQuery, type TransactionsQuery } from '../query/query';
import { formatWallClock } from '../time/zones';
import { startHarness, type Harness } from '../../tests/support/service-harness';
import { ProblemError } from '../http/problem';
import { statusInfo } from '../cdr/status';

const HOUR = 3600_000;
let h: Harness;

function query(params: Record<string, string>): TransactionsQuery {
  const parsed = parseQuery(new URLSearchParams(params));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.query;
}

// One clock reading for the whole file: two ranges built a second apart would be different queries.
const NOW = Date.now();

function range(fromHoursAgo: number, toHoursAgo: number, tz: 'UTC' | 'JST' = 'UTC') {
  return {
    'date-from': formatWallClock(new Date(NOW - fromHoursAgo * HOUR), tz),
    'date-to': formatWallClock(new Date(NOW - toHoursAgo * HOUR), tz),
    tz,
  };
}

beforeAll(async () => {
  const generous = { PER_MINUTE: '1000', PER_HOUR: '1000', PER_DAY: '1000' };
  h = await startHarness({
    env: Object.fromEntries(
      Object.entries(generous).flatMap(([k, v]) => [
        [`UPSTREAM_LIMIT_${k}`, v],
        [`UPSTREAM_IP_LIMIT_${k}`, v],
      ]),
    ),
  });
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => {
  h.sim.clearFaults();
});

describe('looking a transaction up', () => {
  it('does not show a key of several enterprises, signed in for one, a cached record of another', async () => {
    // support reaches every enterprise; signed in without one, its search caches Sakura's records.
    const all = h.account('support');
    const p = await h.transactions.page(all, query({ ...range(9 * 24, 8 * 24), 'page-size': '100' }));
    const sakura = p._embedded.cdrs.find((c) => c.enterprise_id === 'ent-sakura')?.trx_id as string;
    expect(sakura).toBeTruthy();
    expect((await h.lookup.lookUp(all, sakura, 'UTC')).meta.source).toBe('cache');
    // Signed in for Fuji, the same key is asked upstream, which says no such record for Fuji.
    const before = h.upstreamCalls('support');
    const fuji = { ...all, enterpriseId: 'ent-fuji' };
    await expect(h.lookup.lookUp(fuji, sakura, 'UTC')).rejects.toMatchObject({ problem: { status: 404 } });
    expect(h.upstreamCalls('support')).toBe(before + 1);
    // Signed in for Sakura, the cached copy serves.
    expect((await h.lookup.lookUp({ ...all, enterpriseId: 'ent-sakura' }, sakura, 'UTC')).meta.source).toBe('cache');
    // A miss remembered for Fuji is not one for every enterprise of the key.
    expect((await h.lookup.lookUp(all, sakura, 'UTC')).meta.source).toBe('cache');
  });

  it('never shares a lookup between sessions of one key signed in for different enterprises', async () => {
    // A Fuji record no page has shown, asked at once by the key signed in for no enterprise (it
    // may read it) and for Minato (it may not): two calls, and each session its own answer.
    const index = h.sim.dataset.query({
      from: Date.now() - 2 * 24 * HOUR,
      to: Date.now() - 24 * HOUR,
      enterpriseId: 'ent-fuji',
      limit: 1,
    });
    const id = h.sim.dataset.recordAt(index.indices[0] as number).trx_id;
    const all = h.account('support');
    const minato = { ...all, enterpriseId: 'ent-minato' };
    const before = h.upstreamCalls('support');
    const [fromAll, fromMinato] = await Promise.allSettled([
      h.lookup.lookUp(all, id, 'UTC'),
      h.lookup.lookUp(minato, id, 'UTC'),
    ]);
    expect(fromAll.status === 'fulfilled' && fromAll.value.cdr.enterprise_id).toBe('ent-fuji');
    expect(fromMinato.status === 'rejected' && (fromMinato.reason as ProblemError).problem.status).toBe(404);
    expect(h.upstreamCalls('support')).toBe(before + 2);
  });

  it('looks up a seen trx_id for free, an unseen one for one call, and remembers a miss', async () => {
    const demo = h.account('demo');
    const p = await h.transactions.page(demo, query({ ...range(9 * 24, 8 * 24), 'page-size': '10' }));
    const seen = p._embedded.cdrs[3]?.trx_id as string;
    let before = h.upstreamCalls('demo');
    const fromCache = await h.lookup.lookUp(demo, seen, 'JST');
    expect(fromCache.meta.source).toBe('cache');
    expect(fromCache.cdr.date_received).toMatch(/\+0900$/);
    expect(h.upstreamCalls('demo')).toBe(before);

    // A record of demo's enterprise that no page has shown yet.
    const unseenIndex = h.sim.dataset.query({
      from: Date.now() - 2 * 24 * HOUR,
      to: Date.now() - 24 * HOUR,
      enterpriseId: 'ent-sakura',
      limit: 1,
    });
    const unseen = h.sim.dataset.recordAt(unseenIndex.indices[0] as number).trx_id;
    expect(unseen).toMatch(/^[0-9a-f]{32}$/);
    const fetched = await h.lookup.lookUp(demo, unseen, 'UTC');
    expect(fetched.meta.source).toBe('upstream');
    expect(h.upstreamCalls('demo')).toBe(before + 1);
    expect((await h.lookup.lookUp(demo, unseen, 'UTC')).meta.source).toBe('cache');

    before = h.upstreamCalls('demo');
    const missing = '0123456789abcdef0123456789abcdef';
    await expect(h.lookup.lookUp(demo, missing, 'UTC')).rejects.toBeInstanceOf(ProblemError);
    await expect(h.lookup.lookUp(demo, missing, 'UTC')).rejects.toBeInstanceOf(ProblemError);
    expect(h.upstreamCalls('demo')).toBe(before + 1);
  });

  it('counts both calls of a lookup whose token was renewed on the way', async () => {
    const demo = h.account('demo');
    const page = await h.transactions.page(demo, query({ ...range(7 * 24, 6 * 24), 'page-size': '10' }));
    const id = page._embedded.cdrs[0]!.trx_id;
    // Forgotten by the cache, so the lookup asks the upstream.
    await h.store.cache.prune(Number.MAX_SAFE_INTEGER);
    h.sim.setFaults({ expireTokens: true, count: 0 });
    h.sim.clearFaults();
    const before = h.upstreamCalls('demo');
    const found = await h.lookup.lookUp(demo, id, 'UTC');
    expect(found.meta).toMatchObject({ source: 'upstream', calls: 2 });
    expect(h.upstreamCalls('demo') - before).toBe(2);
  });
});

describe('a record of a recent page', () => {
  it('is looked up for free once its page has expired when its status is final (it cannot change), for a call when it may still move', async () => {
    let skew = 0;
    const later = await startHarness({ now: () => Date.now() + skew });
    try {
      const demo = later.account('demo');
      const p = await later.transactions.page(demo, query({ ...range(6, 0), 'page-size': '100' }));
      const final = p._embedded.cdrs.find((c) => statusInfo(c.delivery_status)?.final);
      expect(final, 'a delivered or failed record in the last six hours').toBeDefined();
      // Past the recent page's life (CACHE_RECENT_TTL_SECONDS, 120 s): the page would be asked again.
      skew = 5 * 60_000;
      const before = later.upstreamCalls('demo');
      const found = await later.lookup.lookUp(demo, final!.trx_id, 'UTC');
      expect(found.cdr.trx_id).toBe(final!.trx_id);
      expect(later.upstreamCalls('demo')).toBe(before);
      const moving = p._embedded.cdrs.find((c) => !statusInfo(c.delivery_status)?.final);
      if (moving) {
        await later.lookup.lookUp(demo, moving.trx_id, 'UTC');
        expect(later.upstreamCalls('demo')).toBe(before + 1);
      }
    } finally {
      await later.close();
    }
  });
});
