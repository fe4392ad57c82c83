import 'server-only';
/**
 * next-auth (v4) configuration. A person signs in with the API key and secret of their Report API
 * account; the server checks them at the upstream's token endpoint. The browser's session cookie
 * (a JWT encrypted by next-auth) holds only a random session id, the API key and the enterprise id:
 * the secret stays in the server-side vault (sealed) for token renewals, and the upstream token
 * stays in server memory. Neither is ever in `/api/auth/session`, `useSession`, HTML or JS.
 */
import { randomUUID } from 'node:crypto';
import type { NextAuthOptions, User } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import type { Config } from '../config';
import { QuotaExceededError } from '../governor/server';
import { log } from '../log';
import type { UpstreamGateway } from '../upstream/server';
import type { VaultStore } from './vault';
import { UpstreamError, type UpstreamErrorKind } from '../upstream/server';
import { authSecret } from './auth-secret';
import { signInProblems } from './credentials';
import { logFingerprint } from './fingerprint';
import { PAGE_PATHS } from '../http/paths';
import { seal } from './secret-box';
import { signInErrorCode } from './sign-in-errors';
import type { SignInAttempt } from './sign-in-throttle';
import { OIDC_PROVIDER_ID, type Claims, type IdpTokens } from './oidc';
import type { OAuthConfig } from 'next-auth/providers/oauth';
import type { VaultEntry } from './vault';
import type { SignInErrorCode } from './sign-in-errors';

declare module 'next-auth' {
  interface User {
    enterpriseId?: string | null;
    /** The API key the session works on (a team person's: the team account's). */
    apiKey?: string;
  }
  interface Session {
    apiKey: string;
    enterpriseId: string | null;
  }
}

declare module 'next-auth/jwt' {
  interface JWT {
    sid?: string;
    apiKey?: string;
    enterpriseId?: string | null;
  }
}

/** The upstream said no to the key and secret themselves (not: it was busy, or unreachable). */
function isRejection(err: unknown): boolean {
  return err instanceof UpstreamError && (err.kind === 'unauthorized' || err.kind === 'forbidden');
}

/**
 * Sign-in failures a person can act on, as codes: next-auth puts the thrown message into the
 * sign-in page's `?error=`, and the page shows only its own text for a code (./sign-in-errors.ts).
 */
function signInFailure(err: unknown): Error {
  if (isRejection(err)) return new Error(signInErrorCode('CredentialsRejected'));
  // Another call in flight passes in moments; a cap or the upstream's own hold has a wait to say.
  if (err instanceof QuotaExceededError)
    return new Error(
      err.limitedBy === 'in-flight'
        ? signInErrorCode('UpstreamBusy')
        : signInErrorCode('UpstreamHolding', err.retryAfterMs / 1000),
    );
  if (err instanceof UpstreamError && err.kind === 'rate_limited')
    return new Error(signInErrorCode('UpstreamHolding', (err.retryAfterMs ?? 60_000) / 1000));
  if (err instanceof UpstreamError) return new Error(signInErrorCode('UpstreamUnreachable'));
  log.error('signin.unexpected', { error: err instanceof Error ? err.message : String(err) });
  return new Error(signInErrorCode('SignInBroken'));
}

/** How an upstream that cannot check a sign-in fails (not a refusal of the key). */
const UPSTREAM_DOWN = new Set<UpstreamErrorKind>(['unavailable', 'timeout', 'malformed', 'network']);

/** What sign-in needs of the server: the gateway to check credentials, the vault, the session length. */
export interface AuthDeps {
  gateway: Pick<UpstreamGateway, 'verifyCredentials' | 'forget'>;
  store: { vault: VaultStore };
  config: Pick<Config, 'SESSION_MAX_AGE_HOURS'>;
  /** The throttle's count of this sign-in attempt (lib/auth/sign-in-throttle.ts), told how it ended. */
  attempt?: SignInAttempt;
  /** Team mode (lib/team): sign-in with the organisation's identity provider, when configured. */
  teamSignIn?: TeamSignIn | null;
}

/**
 * What a sign-in with the identity provider needs of team mode: the provider, and whether (and how)
 * the person may come in — the session to open, stored already, or the sign-in page's code for why not.
 */
export interface TeamSignIn {
  provider: OAuthConfig<Claims>;
  admit(claims: Claims, tokens: IdpTokens): Promise<{ entry: VaultEntry; name: string } | { refused: SignInErrorCode }>;
}

/** A cookie whose session the vault no longer holds: next-auth answers "no session" and clears it. */
class SessionEndedError extends Error {
  constructor() {
    super('the session was ended on the server');
    this.name = 'SessionEndedError';
  }
}

async function authorize(deps: AuthDeps, raw: Record<string, string> | undefined): Promise<User | null> {
  const input = {
    apiKey: (raw?.apiKey ?? '').trim(),
    apiSecret: raw?.apiSecret ?? '',
    enterpriseId: (raw?.enterpriseId ?? '').trim(),
  };
  // The page checks the same before sending; only a script can get here with a bad form.
  if (Object.keys(signInProblems(input)).length > 0) throw new Error(signInErrorCode('InvalidInput'));
  try {
    // No attempt (nothing counted it): treated as from a new address, the stricter reading.
    await deps.gateway.verifyCredentials(input.apiKey, input.apiSecret, {
      knownAddress: deps.attempt?.knownAddress ?? false,
    });
  } catch (err) {
    await (isRejection(err) ? deps.attempt?.rejected() : deps.attempt?.abandoned());
    // Not accepted: the key may be anything (a secret pasted into the wrong field), so only its fingerprint is logged.
    const reason = err instanceof UpstreamError ? err.kind : err instanceof QuotaExceededError ? 'busy' : 'error';
    log.info('signin.refused', { key: logFingerprint(input.apiKey), reason });
    // The upstream out of reach or broken (a wrong UPSTREAM_BASE_URL, an outage) is the operator's to
    // see, at the level they watch: nobody can sign in until it is fixed.
    if (err instanceof UpstreamError && UPSTREAM_DOWN.has(err.kind))
      log.warn('signin.upstream_unavailable', { reason, error: err.message });
    throw signInFailure(err);
  }
  await deps.attempt?.succeeded();
  const now = Date.now();
  const sid = randomUUID();
  await deps.store.vault.put({
    sid,
    apiKey: input.apiKey,
    enterpriseId: input.enterpriseId || null,
    sealedSecret: seal(input.apiSecret, authSecret()),
    createdAt: now,
    expiresAt: now + deps.config.SESSION_MAX_AGE_HOURS * 3600_000,
  });
  log.info('signin.ok', { account: input.apiKey });
  return { id: sid, name: input.apiKey, enterpriseId: input.enterpriseId || null };
}

export function authOptions(deps: AuthDeps): NextAuthOptions {
  return {
    secret: authSecret(),
    session: { strategy: 'jwt', maxAge: deps.config.SESSION_MAX_AGE_HOURS * 3600 },
    pages: { signIn: PAGE_PATHS.signIn, error: PAGE_PATHS.signIn },
    providers: [
      CredentialsProvider({
        id: 'credentials',
        name: 'Report API key',
        credentials: {
          apiKey: { label: 'API key', type: 'text' },
          apiSecret: { label: 'API secret', type: 'password' },
          enterpriseId: { label: 'Enterprise ID (optional)', type: 'text' },
        },
        authorize: (credentials) => authorize(deps, credentials as Record<string, string> | undefined),
      }),
      ...(deps.teamSignIn ? [deps.teamSignIn.provider] : []),
    ],
    callbacks: {
      async signIn({ user, account, profile }) {
        if (account?.provider !== OIDC_PROVIDER_ID) return true;
        if (!deps.teamSignIn || !profile) throw new Error(signInErrorCode('SignInBroken'));
        const admitted = await deps.teamSignIn.admit(profile as Claims, {
          ...(typeof account.refresh_token === 'string' ? { refreshToken: account.refresh_token } : {}),
          ...(typeof account.access_token === 'string' ? { accessToken: account.access_token } : {}),
          ...(typeof account.expires_at === 'number' ? { accessExpiresAt: account.expires_at * 1000 } : {}),
        });
        // next-auth sends a thrown message to /signin?error=<it>, where only its code's own text shows.
        if ('refused' in admitted) throw new Error(admitted.refused);
        // The same object reaches the jwt callback below: from here on it is the dashboard's session.
        Object.assign(user, {
          id: admitted.entry.sid,
          name: admitted.name,
          apiKey: admitted.entry.apiKey,
          enterpriseId: admitted.entry.enterpriseId,
        });
        return true;
      },
      async jwt({ token, user }) {
        if (user) {
          token.sid = user.id;
          token.apiKey = user.apiKey ?? user.name ?? undefined;
          token.enterpriseId = user.enterpriseId ?? null;
          return token;
        }
        // Every later read of the session (/api/auth/session): one the vault no longer holds
        // (signed out, signed out everywhere, its secret refused upstream) is no session.
        if (!token.sid) throw new SessionEndedError();
        let held: unknown;
        try {
          held = await deps.store.vault.get(token.sid, Date.now());
        } catch (err) {
          // The store cannot be read (a database restart, a failover): the session is not known to
          // have ended, and next-auth would delete the cookie of any session whose check threw —
          // every person signed out by an outage. The cookie stays; the API's answers say the store
          // is unavailable until it is back (nothing is served without it).
          log.warn('session.store_unavailable', { error: err instanceof Error ? err.message : String(err) });
          return token;
        }
        if (!held) throw new SessionEndedError();
        return token;
      },
      session({ session, token }) {
        // Only what the page needs to show: never the session id, a secret or an upstream token.
        return {
          expires: session.expires,
          user: { name: token.apiKey ?? null },
          apiKey: token.apiKey ?? '',
          enterpriseId: token.enterpriseId ?? null,
        };
      },
    },
    // next-auth's own messages go through the one logger (lib/log.ts), as codes and messages only.
    logger: {
      error(code, metadata) {
        const error = metadata instanceof Error ? metadata : (metadata as { error?: unknown } | undefined)?.error;
        if (code === 'JWT_SESSION_ERROR' && error instanceof SessionEndedError) return log.info('session.ended_cookie');
        log.warn('nextauth.error', { code, error: error instanceof Error ? error.message : undefined });
      },
      warn(code) {
        log.warn('nextauth.warn', { code });
      },
      debug(code) {
        log.debug('nextauth.debug', { code });
      },
    },
    events: {
      async signOut({ token }) {
        if (!token?.sid) return;
        const { store, gateway } = deps;
        const entry = await store.vault.get(token.sid, Date.now());
        await store.vault.delete(token.sid);
        if (entry && (await store.vault.countForApiKey(entry.apiKey, Date.now())) === 0) gateway.forget(entry.apiKey);
        log.info('signout', { account: token.apiKey });
      },
    },
  };
}
