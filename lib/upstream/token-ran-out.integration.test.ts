/**
 * A call whose token runs out while it waits for its turn (behind another account's slow call) is
 * not sent with it: it renews and goes, one query, not a refused one and another. Over real HTTP
 * against the simulator, with tokens of 4 seconds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../tests/support/service-harness';
import { parseQuery } from '../query/query';
import { formatWallClock } from '../time/zones';
import { upstreamBase } from '../query/wire';

let h: Harness;
beforeAll(async () => {
  const roomy = { UPSTREAM_LIMIT_PER_MINUTE: '1000', UPSTREAM_LIMIT_PER_HOUR: '1000', UPSTREAM_LIMIT_PER_DAY: '1000' };
  h = await startHarness({
    sim: { tokenTtlSeconds: 4 },
    env: { ...roomy, UPSTREAM_TOKEN_RENEW_BEFORE_MS: '500', UPSTREAM_QUEUE_WAIT_MS: '20000' },
  });
});
afterAll(async () => {
  await h.close();
});

const DAY = 86_400_000;
function base(daysAgo: number) {
  const to = Date.now() - daysAgo * DAY;
  const parsed = parseQuery(
    new URLSearchParams({
      'date-from': formatWallClock(new Date(to - DAY), 'UTC'),
      'date-to': formatWallClock(new Date(to), 'UTC'),
      tz: 'UTC',
    }),
  );
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return upstreamBase(
    { from: parsed.query.from, to: parsed.query.to, filters: {} },
    { enterpriseId: null, pageSize: 100 },
  );
}

describe('a token that runs out while its call waits', () => {
  it('is renewed before the call goes: no refused query', async () => {
    const demo = h.account('demo');
    const fuji = h.account('fuji');
    // demo's token now, while fuji's call (the next query the simulator answers) takes 5 s.
    await h.gateway.query(demo, { base: base(9), page: 1, sortOrder: 'asc' }, 'export');
    h.sim.setFaults({ latencyMs: 5_000, count: 1 });
    const before = h.sim.stats().accounts.demo!;
    const slow = h.gateway.query(fuji, { base: base(9), page: 1, sortOrder: 'asc' }, 'interactive');
    await new Promise((r) => setTimeout(r, 200));
    // demo's call takes its (still good) token, then waits for the one call in flight.
    const { page } = await h.gateway.query(demo, { base: base(8), page: 1, sortOrder: 'asc' }, 'export');
    await slow;
    expect(page._embedded.total_found).toBeGreaterThan(0);
    const after = h.sim.stats().accounts.demo!;
    expect(after.queryRequests - before.queryRequests).toBe(1);
    expect(after.errors - before.errors).toBe(0);
  });
});
