/**
 * Quota nobody can take from anybody, end to end over real HTTP against the simulator with its
 * limits on: account A spends all it may this hour, and account B, in the same hour, still gets its
 * calls — with the default reading (rate windows per account) and with deployment-wide windows on
 * (an upstream that counts per client IP: the simulator with `ipRateLimits`), where A's use stops
 * short of the part held back for accounts that have not called yet. The upstream never answers 429.
 *
 * Both sides allow 10 calls a minute and 10 an hour, so an hour's budget is spent within seconds.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { QuotaExceededError } from './quota-errors';
import { parseQuery, type TransactionsQuery } from '../query/query';
import { formatWallClock } from '../time/zones';
import { startHarness, type Harness } from '../../tests/support/service-harness';

const HOUR = 3600_000;
const NOW = Date.now();
const LIMITS = { maxInFlight: 1, perMinute: 10, perHour: 10, perDay: 100 };
const ACCOUNT_ENV = { UPSTREAM_LIMIT_PER_MINUTE: '10', UPSTREAM_LIMIT_PER_HOUR: '10', UPSTREAM_LIMIT_PER_DAY: '100' };

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** The n-th distinct search (a one-hour range n hours back): never cached, so each costs one call. */
function search(n: number): TransactionsQuery {
  const parsed = parseQuery(
    new URLSearchParams({
      'date-from': formatWallClock(new Date(NOW - (n + 2) * HOUR), 'UTC'),
      'date-to': formatWallClock(new Date(NOW - (n + 1) * HOUR), 'UTC'),
      tz: 'UTC',
    }),
  );
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.query;
}

let searches = 0;
/** Searches until the dashboard refuses; how many were served, and the refusal. */
async function spend(
  harness: Harness,
  apiKey: string,
  max = 20,
): Promise<{ served: number; refusal: QuotaExceededError | null }> {
  const account = harness.account(apiKey);
  for (let served = 0; served < max; served++) {
    try {
      const page = await harness.transactions.page(account, search(searches++));
      expect(page._meta.source).toBe('upstream');
    } catch (err) {
      if (err instanceof QuotaExceededError) return { served, refusal: err };
      throw err;
    }
  }
  return { served: max, refusal: null };
}

describe('fair shares between accounts', () => {
  it('per-account windows (the default): A spends its hour, B still gets all of its own', async () => {
    h = await startHarness({ sim: { limits: LIMITS }, env: ACCOUNT_ENV });
    const a = await spend(h, 'demo');
    expect(a.served).toBe(10);
    expect(a.refusal).toMatchObject({ scope: 'account', limitedBy: 'hour' });
    expect(a.refusal?.message).toMatch(
      /^Your account's 10 calls this hour are used; the next call can go in \d+ min\.$/,
    );

    const b = await spend(h, 'fuji');
    expect(b.served).toBe(10);
    expect(b.refusal?.scope).toBe('account');
    expect((await h.gateway.quota('fuji')).windows.find((w) => w.name === 'hour')).toMatchObject({
      used: 10,
      remaining: 0,
    });

    expect(h.sim.stats().total).toMatchObject({ requests: 20, rateLimited: 0, maxInFlight: 1 });
    expect(h.sim.stats().accounts.demo?.requests).toBe(10);
  });

  it('deployment-wide windows: A stops short of the held-back share, and B and C each still get a call', async () => {
    h = await startHarness({
      sim: { limits: { ...LIMITS, ipRateLimits: true } },
      env: {
        ...ACCOUNT_ENV,
        UPSTREAM_IP_LIMIT_PER_MINUTE: '10',
        UPSTREAM_IP_LIMIT_PER_HOUR: '10',
        UPSTREAM_IP_LIMIT_PER_DAY: '100',
        UPSTREAM_IP_HOLDBACK_SHARE: '0.2',
      },
    });
    const a = await spend(h, 'demo');
    // 10 a minute and an hour for every account together, 2 of each kept for accounts that have not called.
    expect(a.served).toBe(8);
    expect(a.refusal).toMatchObject({ scope: 'deployment', detail: { held: true } });
    expect(a.refusal?.message).toContain("Your account has used its share of this dashboard's calls this");
    expect(a.refusal?.message).toContain('(1 account used them)');

    const b = await spend(h, 'fuji');
    expect(b.served).toBe(1);
    const c = await spend(h, 'minato');
    expect(c.served).toBe(1);
    // Now the shared window is full for everyone, and the message says whose budget that is.
    expect(c.refusal).toMatchObject({ scope: 'deployment' });
    expect(c.refusal?.message).toMatch(
      /^This dashboard's shared calls this (minute|hour) \(10 an? (minute|hour) for every account together\) are used \(3 accounts used them\); /,
    );
    const shared = (await h.gateway.quota('support')).shared;
    expect(shared?.find((w) => w.name === 'hour')).toMatchObject({ used: 10, remaining: 0, accounts: 3 });

    expect(h.sim.stats().total).toMatchObject({ requests: 10, rateLimited: 0, maxInFlight: 1 });
  });
});
