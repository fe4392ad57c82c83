import 'server-only';
/**
 * Sign-in with the organisation's OpenID Connect provider (team mode): next-auth's provider for the
 * authorization code flow with PKCE and state (openid-client checks the ID token: issuer, audience,
 * signature, expiry), and the few requests the dashboard makes of the provider itself afterwards:
 * reading a person's claims again (a refresh grant, or userinfo) when their role is to be confirmed.
 *
 * The provider's tokens are kept sealed in the person's session (./vault.ts), never in the cookie,
 * a page or a log line; the client secret is sent only to the provider's token endpoint.
 */
import type { Config } from '../config';
import type { OAuthConfig } from 'next-auth/providers/oauth';
import { authSecret } from './auth-secret';
import { seal, unseal } from './secret-box';

/** next-auth's id for the provider: its callback is /api/auth/callback/oidc. */
export const OIDC_PROVIDER_ID = 'oidc';

export type OidcConfig = Pick<Config, 'OIDC_ISSUER' | 'OIDC_CLIENT_ID' | 'OIDC_CLIENT_SECRET' | 'OIDC_NAME'>;

/** Claims of an ID token or of userinfo, as they came. */
export type Claims = Record<string, unknown>;

/** What the provider gave at sign-in that lets the dashboard read the person's claims again. */
export interface IdpTokens {
  refreshToken?: string;
  accessToken?: string;
  /** When the access token expires (ms). */
  accessExpiresAt?: number;
}

/** The issuer without a trailing slash: discovery is at `<issuer>/.well-known/openid-configuration`. */
const issuerOf = (config: OidcConfig) => (config.OIDC_ISSUER ?? '').replace(/\/+$/, '');

/** The scopes asked for: the person (profile, email), and a refresh token to read their role again later. */
const SCOPES = 'openid profile email offline_access';

/** next-auth's provider for the organisation's identity provider (team mode only: OIDC_ISSUER set). */
export function oidcProvider(config: OidcConfig): OAuthConfig<Claims> {
  return {
    id: OIDC_PROVIDER_ID,
    name: config.OIDC_NAME,
    type: 'oauth',
    wellKnown: `${issuerOf(config)}/.well-known/openid-configuration`,
    clientId: config.OIDC_CLIENT_ID,
    clientSecret: config.OIDC_CLIENT_SECRET,
    // offline_access asks for a refresh token (Okta and Entra give one only then); a provider that
    // gives none is asked with the access token while it lasts (readClaimsAgain).
    authorization: { params: { scope: SCOPES } },
    checks: ['pkce', 'state'],
    idToken: true,
    profile(claims) {
      const sub = String(claims.sub ?? '');
      return {
        id: sub,
        name: displayName(claims, sub),
        email: typeof claims.email === 'string' ? claims.email : null,
      };
    },
  };
}

/** A person's name as the provider gives it, or their login or e-mail, or their subject. */
export function displayName(claims: Claims, sub: string): string {
  for (const key of ['name', 'preferred_username', 'email'])
    if (typeof claims[key] === 'string' && (claims[key] as string).trim() !== '') return (claims[key] as string).trim();
  return sub;
}

export function sealTokens(tokens: IdpTokens): string | null {
  if (!tokens.refreshToken && !tokens.accessToken) return null;
  return seal(JSON.stringify(tokens), authSecret());
}

export function openTokens(sealed: string | null): IdpTokens {
  if (!sealed) return {};
  const plain = unseal(sealed, authSecret());
  if (plain === null) return {};
  try {
    return JSON.parse(plain) as IdpTokens;
  } catch {
    return {};
  }
}

/** The provider could not be asked (down, unreachable, an answer that is not one): not a verdict on the person. */
export class IdentityProviderUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IdentityProviderUnavailableError';
  }
}

interface Discovery {
  issuer: string;
  token_endpoint: string;
  userinfo_endpoint?: string;
}

const TIMEOUT_MS = 10_000;

async function fetchJson(url: string, init: RequestInit): Promise<{ status: number; body: Record<string, unknown> }> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS), cache: 'no-store' });
  } catch (err) {
    throw new IdentityProviderUnavailableError(
      `the identity provider did not answer (${err instanceof Error ? err.message : String(err)})`,
    );
  }
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    if (res.status >= 500 || res.ok)
      throw new IdentityProviderUnavailableError(`the identity provider answered ${res.status} without JSON`);
    return { status: res.status, body: {} };
  }
  return { status: res.status, body: body as Record<string, unknown> };
}

/** The claims of an ID token's payload; its signature is not checked: see readClaimsAgain. */
function idTokenClaims(idToken: string): Claims | null {
  const payload = idToken.split('.')[1];
  if (!payload) return null;
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    return claims && typeof claims === 'object' && !Array.isArray(claims) ? (claims as Claims) : null;
  } catch {
    return null;
  }
}

export interface OidcClient {
  /**
   * The person's claims read again, and the tokens to keep; `refused` when the provider no longer
   * honours the session (the refresh token was revoked, the person disabled) or there is nothing
   * to ask it with. Throws IdentityProviderUnavailableError when it cannot be asked.
   */
  readClaimsAgain(
    tokens: IdpTokens,
    sub: string,
    now: number,
  ): Promise<{ claims: Claims; tokens: IdpTokens } | 'refused'>;
  /** The userinfo endpoint's claims for an access token (at sign-in, when the ID token lacks the groups). */
  userinfo(accessToken: string): Promise<Claims | null>;
}

export function createOidcClient(
  config: Pick<Config, 'OIDC_ISSUER' | 'OIDC_CLIENT_ID' | 'OIDC_CLIENT_SECRET'>,
): OidcClient {
  const issuer = issuerOf(config as OidcConfig);
  let discovered: Promise<Discovery> | undefined;
  const discovery = () =>
    (discovered ??= fetchJson(`${issuer}/.well-known/openid-configuration`, {}).then(({ status, body }) => {
      if (status !== 200 || typeof body.token_endpoint !== 'string')
        throw new IdentityProviderUnavailableError(`the identity provider's discovery document answered ${status}`);
      return body as unknown as Discovery;
    })).catch((err: unknown) => {
      // Not kept: the next request asks again.
      discovered = undefined;
      throw err;
    });

  const userinfo = async (accessToken: string): Promise<Claims | null> => {
    const { userinfo_endpoint } = await discovery();
    if (!userinfo_endpoint) return null;
    const { status, body } = await fetchJson(userinfo_endpoint, {
      headers: { Authorization: `Bearer ${accessToken}` },
    });
    return status === 200 ? body : null;
  };

  return {
    userinfo,
    async readClaimsAgain(tokens, sub, now) {
      if (tokens.refreshToken) {
        const { token_endpoint } = await discovery();
        const basic = Buffer.from(
          `${encodeURIComponent(config.OIDC_CLIENT_ID ?? '')}:${encodeURIComponent(config.OIDC_CLIENT_SECRET ?? '')}`,
        ).toString('base64');
        const { status, body } = await fetchJson(token_endpoint, {
          method: 'POST',
          headers: { Authorization: `Basic ${basic}`, 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refreshToken }).toString(),
        });
        if (status === 400 || status === 401) return 'refused';
        if (status !== 200) throw new IdentityProviderUnavailableError(`the token endpoint answered ${status}`);
        const next: IdpTokens = {
          refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : tokens.refreshToken,
          ...(typeof body.access_token === 'string' ? { accessToken: body.access_token } : {}),
          ...(typeof body.expires_in === 'number' ? { accessExpiresAt: now + body.expires_in * 1000 } : {}),
        };
        // The ID token came straight from the token endpoint, over TLS, for our client's own
        // credentials: OpenID Connect Core 3.1.3.7 (6) lets TLS stand for its signature. Its claims
        // must still be about this person, for this client, from this issuer.
        const claims = typeof body.id_token === 'string' ? idTokenClaims(body.id_token) : null;
        if (claims) {
          const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
          const expected = (await discovery()).issuer;
          if (claims.sub !== sub || claims.iss !== expected || !aud.includes(config.OIDC_CLIENT_ID)) return 'refused';
          return { claims, tokens: next };
        }
        const info = next.accessToken ? await userinfo(next.accessToken) : null;
        if (!info || info.sub !== sub) return 'refused';
        return { claims: info, tokens: next };
      }
      if (tokens.accessToken && (tokens.accessExpiresAt ?? 0) > now) {
        const info = await userinfo(tokens.accessToken);
        if (!info || info.sub !== sub) return 'refused';
        return { claims: info, tokens };
      }
      return 'refused';
    },
  };
}
