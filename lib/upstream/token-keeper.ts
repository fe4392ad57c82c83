import 'server-only';
/**
 * Keeps one upstream token per account in memory and renews it shortly before it runs out (the
 * docs' advice), with at most one renewal in flight per account: concurrent callers share it.
 * Secrets are fetched through `credentials()` only when a renewal is actually needed, and never
 * stored here.
 */
import { untilAborted } from './abort';
import type { UpstreamClient, UpstreamToken } from './report-api-client';
import { isRetryable } from './errors';

export const DEFAULT_RENEW_BEFORE_MS = 60_000;

export interface TokenKeeper {
  /**
   * The account's token, renewed when due. `minLifeMs`: the caller may wait that long before it
   * sends (a background call queued behind people): a token with less life left is renewed first,
   * as far as a fresh token lives (at most half its life is asked for).
   */
  get(
    accountKey: string,
    credentials: () => Promise<{ apiKey: string; secret: string }>,
    signal?: AbortSignal,
    minLifeMs?: number,
  ): Promise<UpstreamToken>;
  /**
   * After a 401: the next `get` fetches a new token. Pass the token that was refused to make this
   * a no-op when another caller has already replaced it (no second renewal for the same 401).
   */
  invalidate(accountKey: string, staleToken?: string): void;
  /** At sign-out: drop the token; a renewal still in flight is not stored. */
  forget(accountKey: string): void;
  /**
   * Keeps a token obtained elsewhere (sign-in checks the secret at the token endpoint anyway), so
   * the first query does not ask for a second one. Only for a token just issued for these
   * credentials.
   */
  prime(accountKey: string, token: UpstreamToken): void;
}

export interface TokenKeeperOptions {
  client: Pick<UpstreamClient, 'getToken'>;
  now?: () => number;
  renewBeforeMs?: number;
}

interface Entry {
  /** `lifeMs`: how long the token lived when it came (what a fresh one can be asked to outlive). */
  current?: { token: UpstreamToken; renewAt: number; lifeMs: number };
  renewing?: Promise<UpstreamToken>;
}

export function createTokenKeeper(opts: TokenKeeperOptions): TokenKeeper {
  const now = opts.now ?? Date.now;
  const renewBeforeMs = opts.renewBeforeMs ?? DEFAULT_RENEW_BEFORE_MS;
  const entries = new Map<string, Entry>();

  /**
   * Renew `renewBeforeMs` before validUntil. A token that arrives with less life than that (short
   * test lifetimes, or an upstream clock behind ours) is kept for half of what it has left rather
   * than renewed on every call; if it dies anyway, the 401 and `invalidate` recover.
   */
  function renewAtFor(token: UpstreamToken, obtainedAt: number): number {
    const until = token.validUntil.getTime();
    if (!Number.isFinite(until)) return obtainedAt;
    return until - Math.min(renewBeforeMs, Math.max(0, until - obtainedAt) / 2);
  }

  function prune(t: number): void {
    for (const [key, entry] of entries) {
      if (!entry.renewing && (!entry.current || entry.current.token.validUntil.getTime() <= t)) entries.delete(key);
    }
  }

  function startRenewal(
    accountKey: string,
    entry: Entry,
    credentials: () => Promise<{ apiKey: string; secret: string }>,
  ) {
    const previous = entry.current;
    const renewal = (async () => {
      const { apiKey, secret } = await credentials();
      // No caller's signal: the renewal is shared, and one caller giving up must not fail the rest.
      // The client's own timeout bounds it.
      return opts.client.getToken(apiKey, secret);
    })().then(
      (token) => {
        const t = now();
        if (entries.get(accountKey) === entry)
          entry.current = { token, renewAt: renewAtFor(token, t), lifeMs: token.validUntil.getTime() - t };
        prune(t);
        return token;
      },
      (err: unknown) => {
        // Renewing early and the upstream is briefly down: the old token still works, use it.
        // Not after a refusal (401/403): the credentials themselves are no longer good.
        if (previous && isRetryable(err) && entry.current === previous && previous.token.validUntil.getTime() > now()) {
          return previous.token;
        }
        throw err;
      },
    );
    const shared = renewal.finally(() => {
      if (entry.renewing === shared) entry.renewing = undefined;
    });
    // A caller that gave up leaves no one listening; the rejection must not become unhandled.
    shared.catch(() => undefined);
    entry.renewing = shared;
    return shared;
  }

  return {
    async get(accountKey, credentials, signal, minLifeMs = 0) {
      if (signal?.aborted) throw signal.reason;
      let entry = entries.get(accountKey);
      const t = now();
      const lives = (c: NonNullable<Entry['current']>) =>
        c.token.validUntil.getTime() - t >= Math.min(minLifeMs, c.lifeMs / 2);
      if (entry?.current && t < entry.current.renewAt && lives(entry.current)) return entry.current.token;
      if (!entry) {
        entry = {};
        entries.set(accountKey, entry);
      }
      const pending = entry.renewing ?? startRenewal(accountKey, entry, credentials);
      return signal ? untilAborted(pending, signal) : pending;
    },

    invalidate(accountKey, staleToken) {
      const entry = entries.get(accountKey);
      if (!entry?.current) return;
      if (staleToken !== undefined && entry.current.token.token !== staleToken) return;
      entry.current = undefined;
    },

    forget(accountKey) {
      entries.delete(accountKey);
    },

    prime(accountKey, token) {
      const entry = entries.get(accountKey) ?? {};
      if (entry.renewing) return; // a renewal under way will store its own token
      entry.current = { token, renewAt: renewAtFor(token, now()), lifeMs: token.validUntil.getTime() - now() };
      entries.set(accountKey, entry);
    },
  };
}
