import { describe, expect, it, vi } from 'vitest';
import type { UpstreamToken } from './report-api-client';
import { UpstreamError } from './errors';
import { createTokenKeeper } from './token-keeper';

const MIN = 60_000;

/** A token client whose answers the test controls, on a clock the test moves. */
function setup(opts: { lifetimeMs?: number; renewBeforeMs?: number } = {}) {
  let clock = Date.UTC(2025, 9, 8, 12, 0, 0);
  let n = 0;
  const lifetime = opts.lifetimeMs ?? 15 * MIN;
  const getToken = vi.fn(async (apiKey: string, _secret: string): Promise<UpstreamToken> => {
    n += 1;
    await new Promise((r) => setTimeout(r, 5)); // long enough for concurrent callers to pile up
    return { token: `${apiKey}-token-${n}`, validUntil: new Date(clock + lifetime), accountId: apiKey };
  });
  const credentials = vi.fn(async () => ({ apiKey: 'demo', secret: 'demo-secret' }));
  const keeper = createTokenKeeper({ client: { getToken }, now: () => clock, renewBeforeMs: opts.renewBeforeMs });
  return {
    keeper,
    getToken,
    credentials,
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

describe('token keeper', () => {
  it('10 concurrent callers share one renewal', async () => {
    const { keeper, getToken, credentials } = setup();
    const tokens = await Promise.all(Array.from({ length: 10 }, () => keeper.get('demo', credentials)));
    expect(getToken).toHaveBeenCalledTimes(1);
    expect(credentials).toHaveBeenCalledTimes(1);
    expect(new Set(tokens.map((t) => t.token))).toEqual(new Set(['demo-token-1']));
  });

  it('reuses the token until shortly before validUntil, then renews once', async () => {
    const { keeper, getToken, credentials, advance } = setup();
    expect((await keeper.get('demo', credentials)).token).toBe('demo-token-1');
    advance(13 * MIN);
    expect((await keeper.get('demo', credentials)).token).toBe('demo-token-1');
    advance(59_000); // 14:59 — 61 s left, still outside the default 60 s margin
    expect((await keeper.get('demo', credentials)).token).toBe('demo-token-1');
    advance(1_000); // 15:00 — 60 s left: renew
    const renewed = await Promise.all(Array.from({ length: 10 }, () => keeper.get('demo', credentials)));
    expect(renewed.every((t) => t.token === 'demo-token-2')).toBe(true);
    expect(getToken).toHaveBeenCalledTimes(2);
  });

  it('honours a configured margin', async () => {
    const { keeper, getToken, credentials, advance } = setup({ renewBeforeMs: 5 * MIN });
    await keeper.get('demo', credentials);
    advance(10 * MIN - 1);
    await keeper.get('demo', credentials);
    expect(getToken).toHaveBeenCalledTimes(1);
    advance(1);
    expect((await keeper.get('demo', credentials)).token).toBe('demo-token-2');
  });

  it('a token that arrives with less life than the margin is kept for half of it', async () => {
    const { keeper, getToken, credentials, advance } = setup({ lifetimeMs: 30_000 });
    await keeper.get('demo', credentials);
    advance(14_000);
    await keeper.get('demo', credentials);
    expect(getToken).toHaveBeenCalledTimes(1);
    advance(1_000);
    await keeper.get('demo', credentials);
    expect(getToken).toHaveBeenCalledTimes(2);
  });

  it('renews first for a caller that may wait longer than the token has left (a background call in the queue), as far as a fresh token lives', async () => {
    const { keeper, getToken, credentials, advance } = setup();
    await keeper.get('demo', credentials);
    advance(12 * MIN); // 3 min left: enough for a person, not for a wait of 3 min 3 s
    expect((await keeper.get('demo', credentials)).token).toBe('demo-token-1');
    expect((await keeper.get('demo', credentials, undefined, 3 * 61_000)).token).toBe('demo-token-2');
    expect(getToken).toHaveBeenCalledTimes(2);
    // Tokens that live 60 s can outlive no such wait: half their life is asked for, not a renewal per call.
    const short = setup({ lifetimeMs: MIN });
    await short.keeper.get('demo', short.credentials, undefined, 3 * 61_000);
    short.advance(20_000); // 40 s left, more than half
    await short.keeper.get('demo', short.credentials, undefined, 3 * 61_000);
    expect(short.getToken).toHaveBeenCalledTimes(1);
  });

  it('invalidate: the next call fetches a new token', async () => {
    const { keeper, getToken, credentials } = setup();
    const first = await keeper.get('demo', credentials);
    keeper.invalidate('demo');
    const second = await keeper.get('demo', credentials);
    expect(second.token).not.toBe(first.token);
    expect(getToken).toHaveBeenCalledTimes(2);
  });

  it('invalidate with the refused token is a no-op once another caller replaced it', async () => {
    const { keeper, getToken, credentials } = setup();
    const old = await keeper.get('demo', credentials);
    keeper.invalidate('demo', old.token); // caller A saw a 401
    const fresh = await keeper.get('demo', credentials);
    keeper.invalidate('demo', old.token); // caller B saw a 401 with the same old token
    expect((await keeper.get('demo', credentials)).token).toBe(fresh.token);
    expect(getToken).toHaveBeenCalledTimes(2);
  });

  it('keeps accounts apart', async () => {
    const { keeper, getToken } = setup();
    const a = await keeper.get('demo', async () => ({ apiKey: 'demo', secret: 's' }));
    const b = await keeper.get('fuji', async () => ({ apiKey: 'fuji', secret: 's' }));
    expect(a.token).toBe('demo-token-1');
    expect(b.token).toBe('fuji-token-2');
    keeper.invalidate('demo');
    expect((await keeper.get('fuji', async () => ({ apiKey: 'fuji', secret: 's' }))).token).toBe('fuji-token-2');
    expect(getToken).toHaveBeenCalledTimes(2);
  });

  it('forget drops the token, and a renewal in flight is not stored', async () => {
    const { keeper, getToken, credentials } = setup();
    await keeper.get('demo', credentials);
    keeper.forget('demo');
    const inFlight = keeper.get('demo', credentials);
    keeper.forget('demo'); // sign-out while renewing
    expect((await inFlight).token).toBe('demo-token-2'); // the caller that asked still gets it
    expect((await keeper.get('demo', credentials)).token).toBe('demo-token-3');
    expect(getToken).toHaveBeenCalledTimes(3);
  });

  it('a failed renewal reaches every waiter, and the next call tries again', async () => {
    const { keeper, getToken, credentials } = setup();
    getToken.mockRejectedValueOnce(new UpstreamError('unauthorized', 'no', { status: 401 }));
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => keeper.get('demo', credentials)));
    expect(results.every((r) => r.status === 'rejected' && (r.reason as UpstreamError).kind === 'unauthorized')).toBe(
      true,
    );
    expect(getToken).toHaveBeenCalledTimes(1);
    expect((await keeper.get('demo', credentials)).token).toMatch(/^demo-token-/);
  });

  it('an early renewal that hits a retryable failure falls back to the still-valid token', async () => {
    const { keeper, getToken, credentials, advance } = setup();
    await keeper.get('demo', credentials);
    advance(14.5 * MIN);
    getToken.mockRejectedValueOnce(new UpstreamError('unavailable', 'down', { status: 503 }));
    expect((await keeper.get('demo', credentials)).token).toBe('demo-token-1');
    advance(MIN); // now past validUntil: no fallback any more
    getToken.mockRejectedValueOnce(new UpstreamError('unavailable', 'down', { status: 503 }));
    await expect(keeper.get('demo', credentials)).rejects.toMatchObject({ kind: 'unavailable' });
  });

  it('a refusal during an early renewal is not papered over', async () => {
    const { keeper, getToken, credentials, advance } = setup();
    await keeper.get('demo', credentials);
    advance(14.5 * MIN);
    getToken.mockRejectedValueOnce(new UpstreamError('unauthorized', 'revoked', { status: 401 }));
    await expect(keeper.get('demo', credentials)).rejects.toMatchObject({ kind: 'unauthorized' });
  });

  it('one waiter giving up does not cancel the renewal for the others', async () => {
    const { keeper, getToken, credentials } = setup();
    const ctl = new AbortController();
    const quitter = keeper.get('demo', credentials, ctl.signal);
    const stayer = keeper.get('demo', credentials);
    ctl.abort();
    await expect(quitter).rejects.toMatchObject({ name: 'AbortError' });
    expect((await stayer).token).toBe('demo-token-1');
    expect(getToken).toHaveBeenCalledTimes(1);
  });

  it('does not ask for the credentials while the token is good', async () => {
    const { keeper, credentials } = setup();
    await keeper.get('demo', credentials);
    await keeper.get('demo', credentials);
    await keeper.get('demo', credentials);
    expect(credentials).toHaveBeenCalledTimes(1);
  });
});

describe('prime', () => {
  it('serves a token obtained at sign-in without asking for another', async () => {
    let issued = 0;
    const keeper = createTokenKeeper({
      client: {
        getToken: async () => ({
          token: `t${++issued}`,
          validUntil: new Date(Date.now() + 900_000),
          accountId: 'demo',
        }),
      },
    });
    keeper.prime('demo', { token: 'from-sign-in', validUntil: new Date(Date.now() + 900_000), accountId: 'demo' });
    const token = await keeper.get('demo', async () => ({ apiKey: 'demo', secret: 's' }));
    expect(token.token).toBe('from-sign-in');
    expect(issued).toBe(0);
  });
});
