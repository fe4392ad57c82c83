import 'server-only';
/**
 * The one door to the upstream. It owns the client, the token keeper and the governor; nothing else
 * imports lib/upstream's client. Every call — query, detail, token — goes through the governor;
 * tokens are renewed before they expire, a 401 gets one renewal and one retry, and an upstream 429
 * blocks the account for as long as the upstream asked.
 */
import type { QuotaSnapshot } from '../api/types';
import type { Cdr, ResultPage } from '../cdr/schema';
import { upstreamLimits, type Config } from '../config';
import { Governor, type Priority } from '../governor/governor';
import { log } from '../log';
import { requestKey, type UpstreamRequest } from '../query/wire';
import type { LedgerStore } from '../store/ledger';
import { createTokenKeeper, createUpstreamClient, UpstreamError, type TokenKeeper, type UpstreamClient, type UpstreamToken } from '../upstream';

/** Who is calling: the upstream account (API key) and how to get its secret for a renewal. */
export interface UpstreamAccount {
  apiKey: string;
  enterpriseId: string | null;
  credentials: () => Promise<{ apiKey: string; secret: string }>;
}

/** Without Retry-After, a 429 is read as "this minute is used up". */
const DEFAULT_429_WAIT_MS = 60_000;

export class UpstreamGateway {
  constructor(
    private readonly client: UpstreamClient,
    private readonly governor: Governor,
    private readonly tokens: TokenKeeper,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Checks a key and secret at the token endpoint (sign-in). Not counted by the query windows. The
   * token it gets is kept for the account's first queries.
   */
  async verifyCredentials(apiKey: string, secret: string): Promise<UpstreamToken> {
    const token = await this.governor.run({ account: apiKey, priority: 'interactive', kind: 'token', counted: false }, () =>
      this.client.getToken(apiKey, secret),
    );
    this.tokens.prime(apiKey, token);
    return token;
  }

  query(account: UpstreamAccount, req: UpstreamRequest, priority: Priority, signal?: AbortSignal): Promise<ResultPage> {
    return this.call(account, priority, 'query', requestKey(req), signal, (token) => this.client.queryTransactions(token, req));
  }

  /** What the account has left (the quota meter, and `_meta.quota` of every answer). */
  quota(apiKey: string): Promise<QuotaSnapshot> {
    return this.governor.snapshot(apiKey);
  }

  detail(account: UpstreamAccount, trxId: string, signal?: AbortSignal): Promise<Cdr> {
    const opts = { tz: 'UTC' as const, ...(account.enterpriseId ? { enterpriseId: account.enterpriseId } : {}) };
    return this.call(account, 'interactive', 'detail', `detail\u0000${trxId}`, signal, (token) =>
      this.client.getTransaction(token, trxId, opts),
    );
  }

  /** At sign-out of the last session of an API key. */
  forget(apiKey: string): void {
    this.tokens.forget(apiKey);
  }

  private async call<T>(
    account: UpstreamAccount,
    priority: Priority,
    kind: string,
    shareKey: string,
    signal: AbortSignal | undefined,
    send: (token: string) => Promise<T>,
  ): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      // The token is fetched before the governed call: a renewal holds the in-flight slot itself.
      const token = await this.tokens.get(account.apiKey, account.credentials, signal);
      try {
        return await this.governor.run({ account: account.apiKey, priority, kind, shareKey, signal }, () => send(token.token));
      } catch (err) {
        if (!(err instanceof UpstreamError)) throw err;
        if (err.kind === 'rate_limited') {
          const wait = err.retryAfterMs ?? DEFAULT_429_WAIT_MS;
          log.warn('upstream.rate_limited', { account: account.apiKey, kind, waitMs: wait });
          await this.governor.blockUntil(account.apiKey, this.now() + wait);
        } else if (err.kind === 'unauthorized' && attempt === 1) {
          // The token died early (revoked, clock skew): renew once and try again. The failed call
          // counted; a second 401 means the credentials themselves are refused.
          log.info('upstream.token_refused', { account: account.apiKey, kind });
          this.tokens.invalidate(account.apiKey, token.token);
          continue;
        } else if (err.kind === 'not_found') {
          // An unknown trx_id is an answer, not a fault.
          log.info('upstream.not_found', { account: account.apiKey, kind });
        } else {
          log.warn('upstream.call_failed', { account: account.apiKey, kind, error: err.kind, status: err.status });
        }
        throw err;
      }
    }
  }
}

/**
 * Builds the gateway from the configuration: the client, the governor over `ledger`, and the token
 * keeper whose renewals go through the governor too — they take the in-flight slot like any call
 * (the upstream's "one at a time" may count them), but not the query API's windows.
 */
export function createGateway(config: Config, ledger: LedgerStore, now: () => number = Date.now): UpstreamGateway {
  const client = createUpstreamClient({ baseUrl: config.UPSTREAM_BASE_URL, timeoutMs: config.UPSTREAM_TIMEOUT_MS });
  const limits = upstreamLimits(config);
  const governor = new Governor({
    ledger,
    limits: limits.account,
    deploymentLimits: limits.deployment,
    maxInFlight: config.UPSTREAM_MAX_IN_FLIGHT,
    backgroundReserve: config.UPSTREAM_BACKGROUND_RESERVE,
    maxWaitMs: config.UPSTREAM_QUEUE_WAIT_MS,
    now,
  });
  const governedTokens = {
    getToken: (apiKey: string, secret: string) =>
      governor.run({ account: apiKey, priority: 'interactive', kind: 'token', counted: false }, () => client.getToken(apiKey, secret)),
  };
  const tokens = createTokenKeeper({ client: governedTokens, renewBeforeMs: config.UPSTREAM_TOKEN_RENEW_BEFORE_MS, now });
  return new UpstreamGateway(client, governor, tokens, now);
}
