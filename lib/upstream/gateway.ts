import 'server-only';
/**
 * The one door to the upstream. It owns the client, the token keeper and the governor; nothing else
 * imports lib/upstream's client. Every call — query, detail, token — goes through the governor;
 * tokens are renewed before they expire, a 401 gets one renewal and one retry, and an upstream 429
 * blocks the account for as long as the upstream asked.
 */
import type { QuotaSnapshot } from '../governor';
import type { Cdr, ResultPage } from '../cdr/schema';
import { upstreamLimits } from '../governor/server';
import { type Config } from '../config';
import type { GovernorBackend } from '../governor';
import { SIGN_IN_ACCOUNT, type CallClass } from '../governor';
import { CallNotSentError, Governor, QuotaExceededError } from '../governor/server';
import { log } from '../log';
import { requestKey, type UpstreamRequest } from '../query/wire';
import { createTokenKeeper, type TokenKeeper } from './token-keeper';
import { createUpstreamClient, type UpstreamClient, type UpstreamToken } from './report-api-client';
import { CredentialsRefusedError, UpstreamError } from './errors';
import { callOutcome } from './call-outcome';
import { countUpstreamCall, observeGovernorWait } from '../metrics/server';

/** Who is calling: the upstream account (API key) and how to get its secret for a renewal. */
export interface UpstreamAccount {
  apiKey: string;
  enterpriseId: string | null;
  credentials: () => Promise<{ apiKey: string; secret: string }>;
  /**
   * The team person a call is made for (lib/team), when several people share the account: the
   * governor serves the person least recently served first, and the ledger notes whose it was.
   */
  person?: string;
}

/**
 * A call as sent, counted (sms_upstream_calls_total) by class and how it ended, with how long it
 * waited in the governor since `askedAt` (performance.now()) for its turn: the one place every
 * call the upstream receives passes.
 */
function counted<T>(cls: CallClass, askedAt: number, send: () => Promise<T>): Promise<T> {
  observeGovernorWait(cls, (performance.now() - askedAt) / 1000);
  return send().then(
    (value) => {
      countUpstreamCall(cls, '2xx');
      return value;
    },
    (err: unknown) => {
      countUpstreamCall(cls, callOutcome(err));
      throw err;
    },
  );
}

/** Without Retry-After, a 429 is read as "this minute is used up". */
const DEFAULT_429_WAIT_MS = 60_000;

/**
 * A governed call whose 429 holds `account` (its Retry-After, or a minute) before the call lets go
 * of the governor's slot: no other call of the account, on any instance, can start in between.
 */
function holdingOn429<T>(
  governor: Governor,
  account: string,
  kind: string,
  now: () => number,
  send: (signal?: AbortSignal) => Promise<T>,
): (signal?: AbortSignal) => Promise<T> {
  return async (signal) => {
    try {
      return await send(signal);
    } catch (err) {
      if (err instanceof UpstreamError && err.kind === 'rate_limited') {
        const wait = err.retryAfterMs ?? DEFAULT_429_WAIT_MS;
        log.warn('upstream.rate_limited', { account, kind, waitMs: wait });
        await governor.blockUntil(account, now() + wait);
      }
      throw err;
    }
  };
}

/**
 * A token this close to its end when the call's turn comes is not sent: the call would be refused
 * (401), counted, and asked again. Background calls can wait for minutes for their turn.
 */
const TOKEN_MARGIN_MS = 1_000;
/**
 * The life a background call's token must have left when it joins the queue: people go first, and
 * a window's wait is a minute and a second; three of them. A token renewed 60 s before its end
 * (UPSTREAM_TOKEN_RENEW_BEFORE_MS) could run out in that queue, and the turn came back unsent but
 * counted. Never more than half a fresh token's life (short test lifetimes).
 */
const BACKGROUND_TOKEN_LIFE_MS = 3 * 61_000;
/** Turns given back for a token that ran out while waiting, before the call fails. */
const MAX_STALE_TURNS = 3;
/** After MAX_STALE_TURNS, the caller is told to ask again this much later. */
const STALE_TURNS_RETRY_MS = 5_000;

/**
 * The call's turn came after its token ran out (or nearly): not sent, so the governor takes the
 * call back out of its windows; the caller renews and asks again.
 */
class TokenRanOutError extends CallNotSentError {
  constructor() {
    super('the token ran out while the call waited for its turn');
    this.name = 'TokenRanOutError';
  }
}

/** Query calls sent to the upstream by a gateway call that then failed, by its error (see callsSpentBy). */
const spentBy = new WeakMap<object, number>();

/**
 * How many query calls the failed gateway call that threw `err` sent: they count against the
 * upstream's windows even though they failed. 0 when none went (the quota refused it, the token
 * could not be had, its turn never came).
 */
export function callsSpentBy(err: unknown): number {
  return typeof err === 'object' && err !== null ? (spentBy.get(err) ?? 0) : 0;
}

/** Notes on `err` the query calls sent before it; a call shared with another request may carry its sender's count already: never lowered. */
function spending(err: unknown, sent: number): unknown {
  if (sent > 0 && typeof err === 'object' && err !== null) spentBy.set(err, Math.max(sent, spentBy.get(err) ?? 0));
  return err;
}

/**
 * How long an upstream 403 to a request is given again without asking: access depends on the key
 * and what it asks (an enterprise, a key's records), which a retry does not change.
 */
const FORBIDDEN_MEMORY_MS = 5 * 60_000;
/** Refusals remembered at most (a script could ask for millions of different requests). */
const FORBIDDEN_MEMORY_SIZE = 10_000;

/** A sign-in waits this long at most for its turn behind signed-in people's calls, then is told to retry. */
export const SIGN_IN_MAX_WAIT_MS = 3_000;

/**
 * What the gateway cannot do itself: when a renewal finds an account's credentials refused, end
 * the key's sessions signed in before `before` (the composition root wires it to the vault); how
 * many there were.
 */
export interface GatewayHooks {
  onCredentialsRefused?: (apiKey: string, refusedSecret: string) => Promise<number>;
}

/** The classes of query calls: a person's, an export's, the local history's copy. */
export type QueryClass = Extract<CallClass, 'interactive' | 'export' | 'sync'>;

export class UpstreamGateway {
  /** Requests the upstream answered 403, by account and request: the refusal and until when it is given again. */
  private readonly forbidden = new Map<string, { err: UpstreamError; until: number }>();

  constructor(
    private readonly client: UpstreamClient,
    private readonly governor: Governor,
    private readonly tokens: TokenKeeper,
    private readonly now: () => number = Date.now,
    private readonly hooks: GatewayHooks = {},
  ) {}

  /**
   * Checks a key and secret at the token endpoint (sign-in): behind signed-in people's calls,
   * within the deployment's token cap, never counted by the query windows. The key is not known to
   * be real yet, so the ledger holds no trace of it. The token is kept for the account's first
   * queries.
   */
  async verifyCredentials(apiKey: string, secret: string, opts: { knownAddress: boolean }): Promise<UpstreamToken> {
    // From an address the key signed in from lately, or not: the latter takes only part of the cap.
    const cls = opts.knownAddress ? 'signin' : 'signin-new';
    const askedAt = performance.now();
    const token = await this.governor.run(
      { account: SIGN_IN_ACCOUNT, cls, kind: 'token', maxWaitMs: SIGN_IN_MAX_WAIT_MS },
      holdingOn429(this.governor, SIGN_IN_ACCOUNT, 'signin', this.now, () =>
        counted(cls, askedAt, () => this.client.getToken(apiKey, secret)),
      ),
    );
    this.tokens.prime(apiKey, token);
    return token;
  }

  /**
   * A page and the query calls this request sent for it: 1, 2 when a token the upstream refused was
   * renewed and the call made again, 0 when an identical request in flight shared its call.
   */
  async query(
    account: UpstreamAccount,
    req: UpstreamRequest,
    cls: QueryClass,
    signal?: AbortSignal,
  ): Promise<{ page: ResultPage; calls: number }> {
    const { value, sent } = await this.call(account, cls, 'query', requestKey(req), signal, (token, flight) =>
      this.client.queryTransactions(token, req, flight),
    );
    return { page: value, calls: sent };
  }

  /** When a query call of this class could go for the account (an export's or the copy's next step). */
  nextCallAt(apiKey: string, cls: QueryClass) {
    return this.governor.nextCallAt(apiKey, cls);
  }

  /** Query calls of this class the account has made since `since` (at most a day back). */
  callsMade(apiKey: string, cls: QueryClass, since: number) {
    return this.governor.callsMade(apiKey, cls, since);
  }

  /** When `count` calls of `cls` would go, after `ahead` queued before them (an export's estimate). */
  planCalls(apiKey: string, cls: QueryClass, count: number, ahead: number, callMs: number) {
    return this.governor.plan(apiKey, cls, count, ahead, callMs);
  }

  /** The limits the governor holds (for what the exports page says about rates and the reserve). */
  get limits() {
    return this.governor.limits;
  }

  /** What is left of the windows over every account (the metrics). */
  quotaLeft() {
    return this.governor.quotaLeft();
  }

  /** What the account has left (the quota meter, and `_meta.quota` of every answer). */
  quota(apiKey: string): Promise<QuotaSnapshot> {
    return this.governor.snapshot(apiKey);
  }

  /**
   * A record and the calls this request sent for it, as `query` counts them. `cls`: a person's
   * lookup, or background work's (a reconciliation's lookups go behind people, never into their reserve).
   */
  async detail(
    account: UpstreamAccount,
    trxId: string,
    signal?: AbortSignal,
    cls: QueryClass = 'interactive',
  ): Promise<{ cdr: Cdr; calls: number }> {
    const opts = { tz: 'UTC' as const, ...(account.enterpriseId ? { enterpriseId: account.enterpriseId } : {}) };
    // Shared only by sessions that would be answered alike: a key of several enterprises, signed
    // in for one, is narrowed to it, and must not be handed another session's wider answer.
    const shareKey = `detail\u0000${account.enterpriseId ?? ''}\u0000${trxId}`;
    const { value, sent } = await this.call(account, cls, 'detail', shareKey, signal, (token) =>
      this.client.getTransaction(token, trxId, opts),
    );
    return { cdr: value, calls: sent };
  }

  /** Stops the governor's timers (shutdown, tests). */
  close(): Promise<void> {
    return this.governor.close();
  }

  /** At sign-out of the last session of an API key. */
  forget(apiKey: string): void {
    this.tokens.forget(apiKey);
  }

  /**
   * The account's token. A renewal the token endpoint refuses (401/403: the secret was changed
   * upstream) ends every session of the key signed in before this request asked — a session
   * signed in meanwhile, with the new secret, stays — and the caller learns why.
   */
  private async token(
    account: UpstreamAccount,
    signal: AbortSignal | undefined,
    minLifeMs = 0,
  ): Promise<UpstreamToken> {
    try {
      return await this.tokens.get(account.apiKey, account.credentials, signal, minLifeMs);
    } catch (err) {
      if (
        !(err instanceof UpstreamError) ||
        err instanceof CredentialsRefusedError ||
        (err.kind !== 'unauthorized' && err.kind !== 'forbidden')
      )
        throw err;
      this.tokens.forget(account.apiKey);
      // The sessions signed in with the refused secret end; one signed in with the new secret stays.
      const refused = await account.credentials().then(
        (c) => c.secret,
        () => null,
      );
      const ended = refused === null ? 0 : ((await this.hooks.onCredentialsRefused?.(account.apiKey, refused)) ?? 0);
      log.warn('upstream.credentials_refused', { account: account.apiKey, status: err.status, sessionsEnded: ended });
      throw new CredentialsRefusedError(account.apiKey, ended, err);
    }
  }

  private rememberForbidden(key: string, err: UpstreamError): void {
    const now = this.now();
    if (this.forbidden.size >= FORBIDDEN_MEMORY_SIZE)
      for (const [k, v] of this.forbidden) if (v.until <= now) this.forbidden.delete(k);
    if (this.forbidden.size >= FORBIDDEN_MEMORY_SIZE) this.forbidden.clear();
    this.forbidden.set(key, { err, until: now + FORBIDDEN_MEMORY_MS });
  }

  private async call<T>(
    account: UpstreamAccount,
    cls: QueryClass,
    kind: string,
    shareKey: string,
    signal: AbortSignal | undefined,
    send: (token: string, signal?: AbortSignal) => Promise<T>,
  ): Promise<{ value: T; sent: number }> {
    const refusedKey = `${account.apiKey}\u0000${account.enterpriseId ?? ''}\u0000${shareKey}`;
    const refused = this.forbidden.get(refusedKey);
    if (refused && refused.until > this.now()) {
      // A new error: the remembered one carries the calls its own request spent.
      const { kind, message, status, upstreamMessage } = refused.err;
      throw new UpstreamError(kind, message, {
        ...(status !== undefined ? { status } : {}),
        ...(upstreamMessage !== undefined ? { upstreamMessage } : {}),
      });
    }
    let staleTurns = 0;
    let sent = 0;
    for (let attempt = 1; ; attempt++) {
      // The token is fetched before the governed call: a renewal holds the in-flight slot itself.
      // Background work may wait in the queue for a window behind people: its token must outlive
      // that wait, or the turn comes with a spent token and is given back unsent.
      const token = await this.token(account, signal, cls === 'interactive' ? 0 : BACKGROUND_TOKEN_LIFE_MS).catch(
        (err: unknown) => Promise.reject(spending(err, sent)),
      );
      // Judged by our clock only when the token was good by it when the call got it: with an
      // upstream clock behind ours, every token would look spent (the 401 path copes then).
      const until = token.validUntil.getTime();
      const judged = until - this.now() > TOKEN_MARGIN_MS;
      const askedAt = performance.now();
      // Background work gives up its call in flight when it is cancelled or the server stops (the
      // signal of everyone sharing the call: a person's identical request keeps it going); a
      // person's call runs to its answer, which is paid for and kept even if they left.
      const sendWhileGood = (flight?: AbortSignal) => {
        if (judged && until - this.now() < TOKEN_MARGIN_MS) throw new TokenRanOutError();
        sent += 1;
        return counted(cls, askedAt, () => send(token.token, cls === 'interactive' ? undefined : flight));
      };
      try {
        const value = await this.governor.run(
          {
            account: account.apiKey,
            cls,
            kind,
            shareKey,
            signal,
            ...(account.person !== undefined ? { person: account.person } : {}),
          },
          holdingOn429(this.governor, account.apiKey, kind, this.now, sendWhileGood),
        );
        return { value, sent };
      } catch (err) {
        if (err instanceof TokenRanOutError) {
          // The turn is given back unsent (the governor took it out of the windows again): a
          // fresh token, then the queue again.
          log.info('upstream.token_ran_out_waiting', { account: account.apiKey, kind });
          this.tokens.invalidate(account.apiKey, token.token);
          // Waits longer than a token lives, again and again: the queue is jammed. The caller
          // is told to ask again (a 429 for a person, a later step for background work).
          if (++staleTurns > MAX_STALE_TURNS)
            throw new QuotaExceededError('in-flight', this.now() + STALE_TURNS_RETRY_MS, STALE_TURNS_RETRY_MS);
          attempt -= 1;
          continue;
        }
        spending(err, sent);
        if (!(err instanceof UpstreamError)) throw err;
        // A 429 held the account already, inside the call (holdingOn429).
        if (err.kind === 'unauthorized' && attempt === 1) {
          // The token died early (revoked, clock skew): renew once and try again. The failed call
          // counted; a second 401 means the credentials themselves are refused.
          log.info('upstream.token_refused', { account: account.apiKey, kind });
          this.tokens.invalidate(account.apiKey, token.token);
          continue;
        } else if (err.kind === 'forbidden') {
          this.rememberForbidden(refusedKey, err);
          log.warn('upstream.call_failed', { account: account.apiKey, kind, error: err.kind, status: err.status });
        } else if (err.kind === 'not_found') {
          // An unknown trx_id is an answer, not a fault.
          log.info('upstream.not_found', { account: account.apiKey, kind });
        } else if (err.kind !== 'rate_limited') {
          log.warn('upstream.call_failed', { account: account.apiKey, kind, error: err.kind, status: err.status });
        }
        throw err;
      }
    }
  }
}

/**
 * Builds the gateway from the configuration: the client, the governor over `backend` (where its
 * state lives: memory over the ledger, or PostgreSQL), and the token keeper whose renewals go
 * through the governor too — they take the in-flight slot like any call (the upstream's "one at a
 * time" may count them) and the token cap, but not the query API's windows.
 */
export function createGateway(
  config: Config,
  backend: GovernorBackend,
  now: () => number = Date.now,
  hooks: GatewayHooks = {},
): UpstreamGateway {
  const client = createUpstreamClient({
    baseUrl: config.UPSTREAM_BASE_URL,
    timeoutMs: config.UPSTREAM_TIMEOUT_MS,
    maxBodyBytes: config.UPSTREAM_MAX_BODY_BYTES,
  });
  const governor = new Governor({
    backend,
    limits: upstreamLimits(config),
    maxInFlight: config.UPSTREAM_MAX_IN_FLIGHT,
    maxWaitMs: config.UPSTREAM_QUEUE_WAIT_MS,
    now,
    onLedgerWriteFailed: (err) =>
      log.warn('governor.ledger_write_failed', { error: err instanceof Error ? err.message : String(err) }),
  });
  const governedTokens = {
    getToken: (apiKey: string, secret: string) => {
      const askedAt = performance.now();
      return governor.run(
        { account: apiKey, cls: 'renewal', kind: 'token' },
        holdingOn429(governor, apiKey, 'token', now, () =>
          counted('renewal', askedAt, () => client.getToken(apiKey, secret)),
        ),
      );
    },
  };
  const tokens = createTokenKeeper({
    client: governedTokens,
    renewBeforeMs: config.UPSTREAM_TOKEN_RENEW_BEFORE_MS,
    now,
  });
  return new UpstreamGateway(client, governor, tokens, now, hooks);
}
