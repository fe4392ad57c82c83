/**
 * A call whose token keeps running out while it waits for its turn is given a fresh token a few
 * times, then the caller is told to ask again (a 429 with a wait), never sent with a spent token,
 * never counted for the turns it gave back, and never an unexplained error. The clock here moves 600 ms each time anyone reads it, so every
 * token (good for 2 s when it is handed out) is spent by the time its turn comes.
 */
import { describe, expect, it } from 'vitest';
import { fakeLedger } from '../../tests/support/fake-ledger';
import { Governor } from '../governor/governor';
import { QuotaExceededError } from '../governor/quota-errors';
import { memoryBackend } from '../governor/memory-backend';
import type { PolicyLimits } from '../governor/decision';
import type { TokenKeeper } from './token-keeper';
import type { UpstreamClient } from './report-api-client';
import { UpstreamGateway } from './gateway';
import { baseOf } from '../query/wire';

const LIMITS: PolicyLimits = {
  account: { perMinute: 1000, perHour: 1000, perDay: 1000 },
  deployment: null,
  backgroundReserve: 0,
  syncShare: 0.6,
  holdbackShare: 0.2,
  tokensPerMinute: 1000,
};

describe('a token that runs out at every turn', () => {
  it('ends in a 429-style refusal after a few fresh tokens, with nothing sent', async () => {
    let clock = Date.parse('2026-11-27T00:00:00Z');
    const now = () => (clock += 600);
    let tokensHanded = 0;
    let invalidated = 0;
    const tokens: TokenKeeper = {
      get: async () => {
        tokensHanded += 1;
        return { token: `t${tokensHanded}`, validUntil: new Date(clock + 2_000), accountId: 'demo' };
      },
      invalidate: () => void (invalidated += 1),
      forget: () => {},
      prime: () => {},
    };
    let sent = 0;
    const client: UpstreamClient = {
      getToken: async () => Promise.reject(new Error('not used')),
      queryTransactions: async () => {
        sent += 1;
        return Promise.reject(new Error('a spent token was sent'));
      },
      getTransaction: async () => Promise.reject(new Error('not used')),
    };
    const governor = new Governor({
      backend: memoryBackend(fakeLedger(), 1),
      limits: LIMITS,
      maxInFlight: 1,
      maxWaitMs: 20_000,
      now,
    });
    const gateway = new UpstreamGateway(client, governor, tokens, now);
    const account = { apiKey: 'demo', enterpriseId: null, credentials: async () => ({ apiKey: 'demo', secret: 's' }) };
    const base = baseOf({ 'date-from': '2026-11-01 00:00:00', 'date-to': '2026-11-02 00:00:00', tz: 'UTC' });
    const err = await gateway
      .query(account, { base, page: 1, sortOrder: 'asc' }, 'interactive')
      .catch((e: unknown) => e);
    // Four turns came and were given back unsent: none of them counts.
    expect((await governor.snapshot('demo')).windows.every((w) => w.used === 0)).toBe(true);
    await gateway.close();
    expect(err).toBeInstanceOf(QuotaExceededError);
    expect((err as QuotaExceededError).limitedBy).toBe('in-flight');
    expect((err as QuotaExceededError).retryAfterMs).toBeGreaterThan(0);
    expect(sent).toBe(0);
    // The first token and three fresh ones, each dropped when it ran out.
    expect(tokensHanded).toBe(4);
    expect(invalidated).toBe(4);
  });
});
