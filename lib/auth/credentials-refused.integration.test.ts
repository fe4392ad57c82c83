/**
 * A secret rotated upstream, over real HTTP against the simulator: the next token renewal is
 * refused, every session of that key signed in with the refused secret ends (the vault forgets
 * them, so their cookies stop working), one signed in with the new secret and other keys' sessions
 * stay, and the caller gets a 401 problem of its own
 * type that says why.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { authSecret } from './auth-secret';
import { seal } from './secret-box';
import { unauthenticated } from './problems';
import { toProblem } from '../root/error-problems';
import { parseQuery } from '../query/query';
import { formatWallClock } from '../time/zones';
import { CredentialsRefusedError } from '../upstream/errors';
import { startHarness, type Harness } from '../../tests/support/service-harness';
import type { UpstreamAccount } from '../upstream/gateway';

const HOUR = 3600_000;
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function search(hoursAgo: number) {
  const now = Date.now();
  const parsed = parseQuery(
    new URLSearchParams({
      'date-from': formatWallClock(new Date(now - (hoursAgo + 1) * HOUR), 'UTC'),
      'date-to': formatWallClock(new Date(now - hoursAgo * HOUR), 'UTC'),
      tz: 'UTC',
    }),
  );
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.query;
}

/** A session in the vault, and the account it signs in as (its secret read back from the vault, as the server does). */
async function session(
  harness: Harness,
  sid: string,
  apiKey: string,
  secret: string,
  createdAt = Date.now() - 1000,
): Promise<UpstreamAccount> {
  await harness.store.vault.put({
    sid,
    apiKey,
    enterpriseId: null,
    sealedSecret: seal(secret, authSecret()),
    createdAt,
    expiresAt: Date.now() + HOUR,
  });
  return { apiKey, enterpriseId: null, credentials: async () => ({ apiKey, secret }) };
}

describe('a secret rotated upstream', () => {
  it('ends every session of the key at the refused renewal, keeps the others, and says why', async () => {
    h = await startHarness();
    const demo = await session(h, 'demo-1', 'demo', 'demo-secret');
    await session(h, 'demo-2', 'demo', 'demo-secret');
    const fuji = await session(h, 'fuji-1', 'fuji', 'fuji-secret');
    // A session signed in with the new secret is not ended, though it was signed in before the
    // refused renewal (the renewal was asked with an old session's secret).
    expect((await h.transactions.page(demo, search(5)))._meta.source).toBe('upstream');
    await h.transactions.page(fuji, search(5));

    h.sim.setSecret('demo', 'demo-rotated');
    await session(h, 'demo-later', 'demo', 'demo-rotated');
    h.sim.setFaults({ expireTokens: true });
    const before = h.sim.stats().accounts.demo?.tokenRequests ?? 0;

    const err = await h.transactions.page(demo, search(6)).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(CredentialsRefusedError);
    expect(err).toMatchObject({ apiKey: 'demo', sessionsEnded: 2, kind: 'unauthorized' });
    // One query refused for its expired token, one renewal refused: nothing more was tried.
    expect(h.sim.stats().accounts.demo).toMatchObject({ tokenRequests: before + 1, tokenRefused: 1 });

    expect(await h.store.vault.get('demo-1', Date.now())).toBeNull();
    expect(await h.store.vault.get('demo-2', Date.now())).toBeNull();
    expect(await h.store.vault.get('demo-later', Date.now())).not.toBeNull();
    expect(await h.store.vault.get('fuji-1', Date.now())).not.toBeNull();
    // Each ended session is told why on its next request, the one that met the refusal or not.
    expect(await h.store.vault.endedReason('demo-2', Date.now())).toBe('credentials-refused');
    expect(await h.store.vault.endedReason('demo-later', Date.now())).toBeNull();
    expect(unauthenticated('credentials-refused').problem).toMatchObject({
      type: '/problems/credentials-refused',
      status: 401,
    });

    const { problem } = toProblem(err, 'en');
    expect(problem).toMatchObject({
      type: '/problems/credentials-refused',
      status: 401,
      title: 'The Report API no longer accepts this API key\u2019s secret',
    });
    expect(problem.detail).toContain(
      'Every session of demo here has been signed out; sign in again with the current secret.',
    );

    // Fuji, whose secret did not change, renews and carries on.
    h.sim.clearFaults();
    expect((await h.transactions.page(fuji, search(6)))._meta.source).toBe('upstream');
  });
});
