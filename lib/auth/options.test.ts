/**
 * Sign-in as next-auth runs it, with stand-ins for the gateway and the vault: what is logged on the
 * way (an API key only once the upstream accepted it; a refused one as a fingerprint), what the
 * throttle is told, and a session the vault no longer holds reading as none.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { JWT } from 'next-auth/jwt';
import { QuotaExceededError } from '../governor/quota-errors';
import type { VaultEntry, VaultStore } from './vault';
import { UpstreamError } from '../upstream/errors';
import { authOptions, type AuthDeps } from './options';
import type { SignInAttempt } from './sign-in-throttle';

// A secret the redactor cannot tell from a key (lib/log.ts hides long random-looking runs, not this).
const PASTED_SECRET = 'minato-secret';
let lines: string[] = [];

beforeEach(() => {
  lines = [];
  vi.stubEnv('LOG_LEVEL', 'debug');
  for (const stream of [process.stdout, process.stderr]) {
    vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
  }
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

function memoryVault(): VaultStore {
  const entries = new Map<string, VaultEntry>();
  return {
    put: async (e) => void entries.set(e.sid, e),
    get: async (sid) => entries.get(sid) ?? null,
    delete: async (sid) => void entries.delete(sid),
    countForApiKey: async () => 0,
    liveSession: async () => null,
    endSessions: async () => 0,
    endedReason: async () => null,
    forApiKey: async () => [],
    forPerson: async () => [],
    claimRoleCheck: async () => false,
    updateTeamSession: async () => undefined,
    moveTeamSessions: async () => 0,
    prune: async () => undefined,
  };
}

function attemptSpy(): SignInAttempt & { said: string[] } {
  const said: string[] = [];
  return {
    said,
    knownAddress: false,
    succeeded: async () => void said.push('succeeded'),
    rejected: async () => void said.push('rejected'),
    abandoned: async () => void said.push('abandoned'),
  };
}

function deps(verify: () => Promise<unknown>, attempt?: SignInAttempt): AuthDeps {
  return {
    gateway: { verifyCredentials: verify as AuthDeps['gateway']['verifyCredentials'], forget: () => undefined },
    store: { vault: memoryVault() },
    config: { SESSION_MAX_AGE_HOURS: 1 },
    ...(attempt ? { attempt } : {}),
  };
}

function authorizeOf(d: AuthDeps) {
  const provider = authOptions(d).providers[0] as unknown as {
    options: { authorize: (c: Record<string, string>) => Promise<unknown> };
  };
  return (apiKey: string) => provider.options.authorize({ apiKey, apiSecret: 'wrong', enterpriseId: '' });
}

describe('sign-in', () => {
  it('logs a refused key only as a fingerprint, and tells the throttle it was refused', async () => {
    const attempt = attemptSpy();
    const authorize = authorizeOf(
      deps(() => Promise.reject(new UpstreamError('unauthorized', 'refused', { status: 401 })), attempt),
    );
    await expect(authorize(PASTED_SECRET)).rejects.toThrow('CredentialsRejected');
    expect(attempt.said).toEqual(['rejected']);
    const text = lines.join('');
    expect(text).toContain('"event":"signin.refused"');
    expect(text).toMatch(/"key":"fp:[0-9a-f]{16}"/);
    expect(text).not.toContain(PASTED_SECRET);
  });

  it('does not count an attempt the upstream could not answer', async () => {
    const attempt = attemptSpy();
    const authorize = authorizeOf(
      deps(
        () =>
          Promise.reject(new QuotaExceededError('tokens', Date.now() + 5000, 5000, 'deployment', { cls: 'signin' })),
        attempt,
      ),
    );
    await expect(authorize('demo')).rejects.toThrow('UpstreamHolding:5');
    // Another call in flight: a few seconds.
    const busy = authorizeOf(
      deps(
        () =>
          Promise.reject(new QuotaExceededError('in-flight', Date.now() + 1000, 1000, 'deployment', { cls: 'signin' })),
        attemptSpy(),
      ),
    );
    await expect(busy('demo')).rejects.toThrow('UpstreamBusy');
    expect(attempt.said).toEqual(['abandoned']);
    expect(lines.join('')).not.toContain('"demo"');
  });

  it('warns the operator when the upstream cannot check a sign-in (out of reach, broken), not when it refuses one', async () => {
    const down = authorizeOf(
      deps(
        () =>
          Promise.reject(
            new UpstreamError('network', 'The Report API could not be reached: connect ECONNREFUSED 127.0.0.1:9'),
          ),
        attemptSpy(),
      ),
    );
    await expect(down('demo')).rejects.toThrow();
    expect(lines.join('')).toMatch(/"level":"warn","event":"signin.upstream_unavailable","reason":"network"/);
    lines.length = 0;
    const refused = authorizeOf(
      deps(() => Promise.reject(new UpstreamError('unauthorized', 'refused', { status: 401 })), attemptSpy()),
    );
    await expect(refused('demo')).rejects.toThrow('CredentialsRejected');
    expect(lines.join('')).not.toContain('signin.upstream_unavailable');
  });

  it('logs the key once the upstream accepted it, and tells the throttle', async () => {
    const attempt = attemptSpy();
    const authorize = authorizeOf(deps(() => Promise.resolve({}), attempt));
    await expect(authorize('demo')).resolves.toMatchObject({ name: 'demo' });
    expect(attempt.said).toEqual(['succeeded']);
    expect(lines.join('')).toMatch(/"event":"signin.ok","account":"demo"/);
  });
});

describe('a session cookie', () => {
  it('reads as a session while the vault holds it, and as none once it was ended', async () => {
    const d = deps(() => Promise.resolve({}));
    const jwt = authOptions(d).callbacks!.jwt! as unknown as (p: { token: JWT }) => Promise<JWT>;
    await d.store.vault.put({
      sid: 's1',
      apiKey: 'demo',
      enterpriseId: null,
      sealedSecret: 'x',
      createdAt: 0,
      expiresAt: Date.now() + 60_000,
    });
    await expect(jwt({ token: { sid: 's1', apiKey: 'demo' } })).resolves.toMatchObject({ sid: 's1' });
    await d.store.vault.delete('s1');
    await expect(jwt({ token: { sid: 's1', apiKey: 'demo' } })).rejects.toThrow('the session was ended on the server');
    await expect(jwt({ token: {} })).rejects.toThrow();
  });

  it('is kept while the store cannot be read: an outage of the database signs nobody out', async () => {
    const d = deps(() => Promise.resolve({}));
    d.store.vault.get = async () => {
      throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
    };
    const jwt = authOptions(d).callbacks!.jwt! as unknown as (p: { token: JWT }) => Promise<JWT>;
    await expect(jwt({ token: { sid: 's1', apiKey: 'demo' } })).resolves.toMatchObject({ sid: 's1', apiKey: 'demo' });
  });
});
