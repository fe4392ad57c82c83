/**
 * The proxy's spending rules, end to end over real HTTP against the simulator: what a person's
 * clicks cost in upstream calls, counted by the simulator itself.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseQuery, type TransactionsQuery } from '../query/query';
import { formatWallClock } from '../time/zones';
import { startHarness, type Harness } from '../../tests/support/service-harness';
import { QuotaExceededError } from '../governor/quota-errors';
import { HistoryIndex } from '../history/history-index';
import { searchPageSize } from '../history/server';
import { TransactionsService } from './search-service';
import { Planner } from './planner';
import { LookupService } from '../lookup/lookup-service';

const HOUR = 3600_000;
let h: Harness;

function query(params: Record<string, string>): TransactionsQuery {
  const parsed = parseQuery(new URLSearchParams(params));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.query;
}

/** A settled range (ended more than 72 h ago) and a recent one, in UTC wall-clock form. */
// One clock reading for the whole file: two ranges built a second apart would be different queries.
const NOW = Date.now();

function range(fromHoursAgo: number, toHoursAgo: number, tz: 'UTC' | 'JST' = 'UTC') {
  const now = NOW;
  return {
    'date-from': formatWallClock(new Date(now - fromHoursAgo * HOUR), tz),
    'date-to': formatWallClock(new Date(now - toHoursAgo * HOUR), tz),
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

describe('spending upstream calls', () => {
  it('serves paging within one upstream page, page sizes and the other zone from one call', async () => {
    const demo = h.account('demo');
    const base = { ...range(9 * 24, 5 * 24), 'page-size': '25', 'sort-order': 'desc' };
    const before = h.upstreamCalls('demo');

    const first = await h.transactions.page(demo, query({ ...base, page: '1' }));
    expect(first._meta).toMatchObject({ source: 'upstream', calls: 1, settled: true });
    expect(first._embedded.cdrs).toHaveLength(25);
    expect(first._embedded.total_found).toBeGreaterThan(400);

    for (const page of ['2', '3', '4']) {
      const p = await h.transactions.page(demo, query({ ...base, page }));
      expect(p._meta.source).toBe('cache');
    }
    const size100 = await h.transactions.page(demo, query({ ...base, page: '1', 'page-size': '100' }));
    expect(size100._embedded.cdrs.slice(0, 25)).toEqual(first._embedded.cdrs);

    // The same instants read in JST: the same records, timestamps written with +0900.
    const jstRange = range(9 * 24, 5 * 24, 'JST');
    const jst = await h.transactions.page(demo, query({ ...base, ...jstRange, page: '1' }));
    expect(jst._meta.source).toBe('cache');
    expect(jst._embedded.cdrs.map((c) => c.trx_id)).toEqual(first._embedded.cdrs.map((c) => c.trx_id));
    expect(jst._embedded.cdrs[0]?.date_received).toMatch(/\+0900$/);
    expect(first._embedded.cdrs[0]?.date_received).toMatch(/\+0000$/);

    expect(h.upstreamCalls('demo') - before).toBe(1);
    // Page 5 of 25 is the second upstream page: one more call.
    await h.transactions.page(demo, query({ ...base, page: '5' }));
    expect(h.upstreamCalls('demo') - before).toBe(2);
  });

  it('answers the other sort order of a settled range from cached pages', async () => {
    const fuji = h.account('fuji');
    // A range with some of Fuji's messages (3 hours of a Japanese night can hold none) and within one
    // page: twelve hours, or less where its daytime holds more than a page (it did, run at 21:40 UTC).
    let base = { ...range(8 * 24, 8 * 24 - 12), 'page-size': '100', status: 'DELIVRD' };
    let asc1 = await h.transactions.page(fuji, query({ ...base, 'sort-order': 'asc', page: '1' }));
    for (const hours of [6, 3, 1]) {
      if (asc1._embedded.total_found <= 100) break;
      base = { ...range(8 * 24, 8 * 24 - hours), 'page-size': '100', status: 'DELIVRD' };
      asc1 = await h.transactions.page(fuji, query({ ...base, 'sort-order': 'asc', page: '1' }));
    }
    const total = asc1._embedded.total_found;
    expect(total).toBeGreaterThan(0);
    expect(total).toBeLessThanOrEqual(100);
    const before = h.upstreamCalls('fuji');
    const desc = await h.transactions.page(fuji, query({ ...base, 'sort-order': 'desc', page: '1' }));
    expect(desc._meta.source).toBe('cache');
    expect(desc._embedded.cdrs.map((c) => c.trx_id)).toEqual(asc1._embedded.cdrs.map((c) => c.trx_id).reverse());
    expect(h.upstreamCalls('fuji')).toBe(before);
  });

  it('does not mirror the sort order of a recent range (its records still change)', async () => {
    const demo = h.account('demo');
    const base = { ...range(6, 0), 'page-size': '100', status: 'DELIVRD' };
    const asc = await h.transactions.page(demo, query({ ...base, 'sort-order': 'asc' }));
    expect(asc._embedded.total_found).toBeGreaterThan(0);
    const desc = await h.transactions.page(demo, query({ ...base, 'sort-order': 'desc' }));
    expect(desc._meta).toMatchObject({ source: 'upstream', settled: false });
  });

  it('costs nothing for a page past the known end', async () => {
    const demo = h.account('demo');
    const base = { ...range(9 * 24, 8 * 24), 'page-size': '10', 'client-reference': 'no-such-reference' };
    const first = await h.transactions.page(demo, query({ ...base, page: '1' }));
    expect(first._embedded.total_found).toBe(0);
    const before = h.upstreamCalls('demo');
    const far = await h.transactions.page(demo, query({ ...base, page: '40' }));
    expect(far._embedded.cdrs).toEqual([]);
    expect(h.upstreamCalls('demo')).toBe(before);
  });

  it('writes links into the dashboard API that keep filters, date-to, sort and zone', async () => {
    const demo = h.account('demo');
    const q = {
      ...range(9 * 24, 6 * 24, 'JST'),
      'page-size': '10',
      'sort-order': 'asc',
      status: 'DELIVRD',
      network: '44010',
    };
    const p = await h.transactions.page(demo, query({ ...q, page: '2' }));
    for (const name of ['self', 'first', 'last', 'next', 'prev'] as const) {
      const href = p._links[name]?.href ?? '';
      expect(href.startsWith('/api/transactions?')).toBe(true);
      const params = new URLSearchParams(href.split('?')[1]);
      expect(params.get('date-to')).toBe(q['date-to']);
      expect(params.get('status')).toBe('DELIVRD');
      expect(params.get('network')).toBe('44010');
      expect(params.get('sort-order')).toBe('asc');
      expect(params.get('tz')).toBe('JST');
      expect(params.get('page-size')).toBe('10');
    }
    expect(new URLSearchParams(p._links.next?.href.split('?')[1]).get('page')).toBe('3');
    expect(new URLSearchParams(p._links.last.href.split('?')[1]).get('page')).toBe(String(p._meta.reachablePages));
    expect(p._embedded.cdrs[0]?._links?.self?.href).toMatch(/^\/api\/transactions\/[0-9a-f]{32}\?tz=JST$/);
  });

  it('never serves one account the pages of another', async () => {
    const q = query({ ...range(9 * 24, 8 * 24), 'page-size': '25' });
    const demoPage = await h.transactions.page(h.account('demo'), q);
    const before = h.upstreamCalls('minato');
    const minatoPage = await h.transactions.page(h.account('minato'), q);
    expect(minatoPage._meta.source).toBe('upstream');
    expect(h.upstreamCalls('minato')).toBe(before + 1);
    const demoIds = new Set(demoPage._embedded.cdrs.map((c) => c.trx_id));
    expect(minatoPage._embedded.cdrs.some((c) => demoIds.has(c.trx_id))).toBe(false);
    expect(new Set(minatoPage._embedded.cdrs.map((c) => c.enterprise_id))).toEqual(new Set(['ent-minato']));
    // A transaction demo has seen is not handed to minato from the cache either.
    const seen = demoPage._embedded.cdrs[0]?.trx_id as string;
    await expect(h.lookup.lookUp(h.account('minato'), seen, 'UTC')).rejects.toMatchObject({
      problem: { status: 404 },
    });
  });

  it('shares one call between identical requests made at once', async () => {
    const demo = h.account('demo');
    const q = query({ ...range(7 * 24, 6 * 24), 'page-size': '50', oa: 'SakuraMart' });
    const before = h.upstreamCalls('demo');
    const pages = await Promise.all([
      h.transactions.page(demo, q),
      h.transactions.page(demo, q),
      h.transactions.page(demo, q),
    ]);
    expect(new Set(pages.map((p) => p._embedded.total_found)).size).toBe(1);
    expect(h.upstreamCalls('demo')).toBe(before + 1);
    // One of them spent it; all three were read from the upstream.
    expect(pages.map((p) => p._meta.calls).sort()).toEqual([0, 0, 1]);
    expect(pages.map((p) => p._meta.source)).toEqual(['upstream', 'upstream', 'upstream']);
  });
});

describe('while the store cannot be reached', () => {
  const down = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

  it('answers a search and a lookup it paid for, though it can neither keep them nor read the quota', async () => {
    // The answers came back as the database went away: nothing can be written, the quota not read
    // (the record is not held: looked up before the call, when the store still answered).
    const cache = {
      ...h.cache,
      getRecord: async () => null,
      putPage: async () => Promise.reject(down()),
      putRecords: async () => Promise.reject(down()),
    };
    const service = new TransactionsService({
      gateway: {
        query: (...a) => h.gateway.query(...a),
        quota: async () => Promise.reject(down()),
      },
      cache,
      policy: h.policy,
      history: h.store.history,
      planner: new Planner({
        index: new HistoryIndex(h.store.history),
        upstreamPageSize: searchPageSize(h.config),
      }),
      upstreamPageSize: searchPageSize(h.config),
    });
    const lookup = new LookupService({
      gateway: { detail: (...a) => h.gateway.detail(...a) },
      cache,
      policy: h.policy,
      history: h.store.history,
    });
    const demo = h.account('demo');
    // A whole day nothing else here asked for: enough records at any time of day, none cached.
    const before = h.upstreamCalls('demo');
    const page = await service.page(demo, query({ ...range(8 * 24 + 12, 7 * 24 + 12), 'page-size': '10' }));
    expect(page._meta).toMatchObject({ source: 'upstream', calls: 1 });
    expect(page._meta.quota).toBeUndefined();
    expect(page._embedded.cdrs).toHaveLength(10);
    const id = page._embedded.cdrs[0]!.trx_id;
    const found = await lookup.lookUp(demo, String(id).toUpperCase(), 'UTC');
    expect(found.cdr.trx_id).toBe(id);
    expect(h.upstreamCalls('demo') - before).toBe(2);
  });
});

describe('token life', () => {
  it('renews a short-lived token before it expires, without a refused call', async () => {
    const shortLived = await startHarness({
      sim: { tokenTtlSeconds: 3 },
      env: { UPSTREAM_TOKEN_RENEW_BEFORE_MS: '1000' },
    });
    try {
      const demo = shortLived.account('demo');
      const q = (status: string) => query({ ...range(9 * 24, 8 * 24), 'page-size': '10', status });
      await shortLived.transactions.page(demo, q('DELIVRD'));
      await new Promise((r) => setTimeout(r, 2500));
      await shortLived.transactions.page(demo, q('EXPIRED'));
      const stats = shortLived.sim.stats().accounts.demo;
      expect(stats?.tokenRequests).toBe(2);
      expect(stats?.errors ?? 0).toBe(0);
      expect(stats?.requests).toBe(2);
    } finally {
      await shortLived.close();
    }
  });
});

describe('upstream faults', () => {
  it('renews an expired token and retries once', async () => {
    const demo = h.account('demo');
    await h.transactions.page(demo, query({ ...range(9 * 24, 8 * 24), 'page-size': '10', da: '819000000000' }));
    const tokensBefore = h.sim.stats().accounts.demo?.tokenRequests ?? 0;
    h.sim.setFaults({ expireTokens: true, count: 0 });
    h.sim.clearFaults();
    const before = h.upstreamCalls('demo');
    const p = await h.transactions.page(
      demo,
      query({ ...range(9 * 24, 8 * 24), 'page-size': '10', da: '819000000001' }),
    );
    expect(p._meta.source).toBe('upstream');
    // The refused call and the one made again both counted, upstream and in the answer.
    expect(h.upstreamCalls('demo') - before).toBe(2);
    expect(p._meta.calls).toBe(2);
    expect(h.sim.stats().accounts.demo?.tokenRequests).toBe(tokensBefore + 1);
  });

  it('maps a 503 to a typed error and serves an expired cached page instead when it has one', async () => {
    let skew = 0;
    const later = await startHarness({ now: () => Date.now() + skew, env: { UPSTREAM_LIMIT_PER_MINUTE: '100' } });
    try {
      const demo = later.account('demo');
      const q = query({ ...range(2, 0), 'page-size': '10', status: 'UNDELIV' });
      later.sim.setFaults({ status: 503 });
      await expect(later.transactions.page(demo, q)).rejects.toMatchObject({ kind: 'unavailable' });
      later.sim.clearFaults();
      await later.transactions.page(demo, q);
      // Ten minutes on, the recent page has expired; the upstream fails again: the old page stands in.
      skew = 10 * 60_000;
      later.sim.setFaults({ malformed: true });
      const before = later.upstreamCalls('demo');
      const stale = await later.transactions.page(demo, q);
      expect(stale._meta.source).toBe('cache');
      expect(stale._meta.stale).toMatch(/could not be asked/);
      // The call that failed counted: the answer says so.
      expect(later.upstreamCalls('demo')).toBe(before + 1);
      expect(stale._meta.calls).toBe(1);
    } finally {
      await later.close();
    }
  });

  it('gives a refusal of the upstream (403) again for a few minutes without asking again', async () => {
    // minato's key reads only its own enterprise; signed in without one, it asks for another.
    const minato = h.account('minato', null);
    const q = query({ ...range(10 * 24, 9 * 24), 'enterprise-id': 'ent-sakura' });
    await expect(h.transactions.page(minato, q)).rejects.toMatchObject({ kind: 'forbidden' });
    const asked = h.upstreamCalls('minato');
    await expect(h.transactions.page(minato, q)).rejects.toMatchObject({ kind: 'forbidden' });
    expect(h.upstreamCalls('minato')).toBe(asked);
    // Its own enterprise is not held back.
    const own = await h.transactions.page(minato, query({ ...range(10 * 24, 9 * 24), 'enterprise-id': 'ent-minato' }));
    expect(own._meta.source).toBe('upstream');
  });

  it('says when a page the upstream sent is short of its own count, and does not keep it', async () => {
    const demo = h.account('demo');
    const q = query({ ...range(10 * 24, 9 * 24), 'page-size': '100', status: 'DELIVRD' });
    h.sim.setFaults({ shortBy: 3, count: 1 });
    const short = await h.transactions.page(demo, q);
    expect(short._embedded.total_found).toBeGreaterThan(100);
    expect(short._embedded.cdrs).toHaveLength(97);
    expect(short._meta.notWhole).toBe(
      `the upstream's page 1 held 97 records where its own count (${short._embedded.total_found}) promises 100`,
    );
    // Not kept: the same search asks again, and the whole page carries no such note.
    const before = h.upstreamCalls('demo');
    const again = await h.transactions.page(demo, q);
    expect(h.upstreamCalls('demo')).toBe(before + 1);
    expect(again._embedded.cdrs).toHaveLength(100);
    expect(again._meta.notWhole).toBeUndefined();
  });

  it('holds the account after an upstream 429 and says when the next call can go', async () => {
    const limited = await startHarness({
      sim: { limits: { maxInFlight: 1, perMinute: 1, perHour: 10, perDay: 100 } },
      env: { UPSTREAM_QUEUE_WAIT_MS: '0' },
    });
    try {
      const demo = limited.account('demo');
      await limited.transactions.page(demo, query({ ...range(9 * 24, 8 * 24), 'page-size': '10' }));
      // The dashboard allows 3 a minute, this upstream only 1: the second call meets a real 429.
      const second = limited.transactions.page(
        demo,
        query({ ...range(9 * 24, 8 * 24), 'page-size': '10', status: 'DELIVRD' }),
      );
      await expect(second).rejects.toMatchObject({ kind: 'rate_limited' });
      const snap = await limited.transactions.quota(demo);
      expect(snap.limitedBy).toBe('upstream');
      expect(new Date(snap.blockedUntil ?? 0).getTime()).toBeGreaterThan(Date.now() + 30_000);
      // The next request is refused by the governor itself: no call reaches the upstream.
      const calls = limited.upstreamCalls('demo');
      await expect(
        limited.transactions.page(demo, query({ ...range(9 * 24, 8 * 24), 'page-size': '10', status: 'EXPIRED' })),
      ).rejects.toBeInstanceOf(QuotaExceededError);
      expect(limited.upstreamCalls('demo')).toBe(calls);
    } finally {
      await limited.close();
    }
  });
});
