/**
 * Bearer tokens: real HS256 JWTs signed by the simulator, so a client that decodes the payload (to
 * read `exp`, say) sees what it would see upstream, and a token forged or altered by a client is
 * refused. The signing key comes from the seed: tokens survive a restart, as upstream tokens would.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface TokenClaims {
  /** The API key the token was issued to. */
  sub: string;
  iat: number;
  exp: number;
  /** Serial number: lets `revokeAll` expire every token issued so far. */
  jti: number;
}

export type TokenCheck =
  | { ok: true; claims: TokenClaims }
  /** `claims` is set when the token is genuine but no longer valid: it still names the account. */
  | { ok: false; reason: string; claims?: TokenClaims };

const b64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');

export class TokenIssuer {
  private readonly key: Buffer;
  private readonly ttlSeconds: number;
  private readonly now: () => number;
  private serial = 0;
  /** Tokens with a serial below this are expired (fault `expireTokens`). */
  private revokedBelow = 0;

  constructor(seed: number, ttlSeconds: number, now: () => number) {
    this.key = createHmac('sha256', 'cpaas-report-simulator').update(String(seed)).digest();
    this.ttlSeconds = ttlSeconds;
    this.now = now;
  }

  issue(apiKey: string): { token: string; claims: TokenClaims } {
    const iat = Math.floor(this.now() / 1000);
    const claims: TokenClaims = { sub: apiKey, iat, exp: iat + this.ttlSeconds, jti: this.serial++ };
    const head = `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(JSON.stringify(claims))}`;
    return { token: `${head}.${this.sign(head)}`, claims };
  }

  verify(token: string): TokenCheck {
    const parts = token.split('.');
    if (parts.length !== 3) return { ok: false, reason: 'the token is not a JWT' };
    const [header, payload, signature] = parts as [string, string, string];
    const expected = Buffer.from(this.sign(`${header}.${payload}`));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      return { ok: false, reason: 'the token signature is invalid' };
    let claims: TokenClaims;
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as TokenClaims;
    } catch {
      return { ok: false, reason: 'the token payload is unreadable' };
    }
    if (claims.jti < this.revokedBelow) return { ok: false, reason: 'the token has expired', claims };
    if (this.now() >= claims.exp * 1000) return { ok: false, reason: 'the token has expired', claims };
    return { ok: true, claims };
  }

  /** Every token issued so far becomes expired. */
  revokeAll(): void {
    this.revokedBelow = this.serial;
  }

  private sign(data: string): string {
    return createHmac('sha256', this.key).update(data).digest('base64url');
  }
}

/** `token_valid_until`: `YYYY/MM/DD HH:mm:ss` in UTC, as the token endpoint writes it. */
export function formatValidUntil(epochSeconds: number): string {
  const iso = new Date(epochSeconds * 1000).toISOString();
  return `${iso.slice(0, 10).replace(/-/g, '/')} ${iso.slice(11, 19)}`;
}
