/**
 * What the simulator saw, so a test can assert how a client behaved: how many token, query and
 * detail calls, how many at once at most, how many were refused. Kept per account (the API key of
 * the token, or the one presented to the token endpoint), per client IP and in total. Keys presented
 * to the token endpoint that belong to no account are kept apart, in a bounded map: a client that
 * floods the endpoint with random keys must not make this answer huge or slow.
 */

export interface TokenCounts {
  tokenRequests: number;
  /** Token requests answered 401 or 406. */
  tokenRefused: number;
}

export interface AccountStats extends TokenCounts {
  /** query + detail requests. */
  requests: number;
  queryRequests: number;
  detailRequests: number;
  /** query/detail requests being answered right now (refused ones included while they are answered). */
  inFlight: number;
  /** The most query/detail requests ever in flight at once. */
  maxInFlight: number;
  /** Answered 429. */
  rateLimited: number;
  /** Answered with any other status >= 400 (faults included). */
  errors: number;
}

/** Token requests that presented an API key no account has (every one of them is refused). */
export interface UnknownKeyStats extends TokenCounts {
  /** Per key, for the first UNKNOWN_KEYS_KEPT distinct keys (each cut to UNKNOWN_KEY_CHARS characters). */
  keys: Record<string, TokenCounts>;
  /** Requests whose key came after `keys` was full: counted in the totals above only. */
  untracked: number;
}

export interface SimStats {
  total: AccountStats;
  accounts: Record<string, AccountStats>;
  ips: Record<string, AccountStats>;
  unknownKeys: UnknownKeyStats;
}

export type RequestKind = 'query' | 'detail';

export const UNKNOWN_KEYS_KEPT = 1000;
export const UNKNOWN_KEY_CHARS = 64;

const empty = (): AccountStats => ({
  requests: 0,
  tokenRequests: 0,
  tokenRefused: 0,
  queryRequests: 0,
  detailRequests: 0,
  inFlight: 0,
  maxInFlight: 0,
  rateLimited: 0,
  errors: 0,
});

const isRefused = (status: number | null) => status === 401 || status === 406;

export class StatsRecorder {
  private readonly total = empty();
  private accounts = new Map<string, AccountStats>();
  private ips = new Map<string, AccountStats>();
  private readonly unknown = { tokenRequests: 0, tokenRefused: 0, untracked: 0 };
  private unknownKeys = new Map<string, TokenCounts>();
  /** Bumped by reset(): a token answer that arrives later belongs to counters that were zeroed. */
  private epoch = 0;

  private targets(ip: string, account: string | null): AccountStats[] {
    const get = (m: Map<string, AccountStats>, k: string) => m.get(k) ?? m.set(k, empty()).get(k)!;
    const out = [this.total, get(this.ips, ip)];
    if (account !== null) out.push(get(this.accounts, account));
    return out;
  }

  /**
   * A token request arrived presenting `apiKey` (null: no readable Basic credentials), which is an
   * account's key or not (`known`). Call the returned function once with the status answered.
   */
  tokenRequest(ip: string, apiKey: string | null, known: boolean): (status: number | null) => void {
    const targets: TokenCounts[] = this.targets(ip, known ? apiKey : null);
    if (apiKey !== null && !known) {
      targets.push(this.unknown);
      const key = apiKey.length > UNKNOWN_KEY_CHARS ? `${apiKey.slice(0, UNKNOWN_KEY_CHARS)}…` : apiKey;
      let counts = this.unknownKeys.get(key);
      if (!counts && this.unknownKeys.size < UNKNOWN_KEYS_KEPT)
        this.unknownKeys.set(key, (counts = { tokenRequests: 0, tokenRefused: 0 }));
      if (counts) targets.push(counts);
      else this.unknown.untracked++;
    }
    for (const s of targets) s.tokenRequests++;
    const epoch = this.epoch;
    let done = false;
    return (status) => {
      if (done || epoch !== this.epoch) return;
      done = true;
      if (isRefused(status)) for (const s of targets) s.tokenRefused++;
    };
  }

  /** A query/detail request arrived; call the returned function once with its status when answered (null: never answered). */
  apiRequest(kind: RequestKind, ip: string, account: string | null): (status: number | null) => void {
    const targets = this.targets(ip, account);
    for (const s of targets) {
      s.requests++;
      if (kind === 'query') s.queryRequests++;
      else s.detailRequests++;
      s.inFlight++;
      s.maxInFlight = Math.max(s.maxInFlight, s.inFlight);
    }
    let done = false;
    return (status) => {
      if (done) return;
      done = true;
      for (const s of targets) {
        s.inFlight--;
        if (status === 429) s.rateLimited++;
        else if (status !== null && status >= 400) s.errors++;
      }
    };
  }

  snapshot(): SimStats {
    return {
      total: { ...this.total },
      accounts: Object.fromEntries([...this.accounts].map(([k, v]) => [k, { ...v }])),
      ips: Object.fromEntries([...this.ips].map(([k, v]) => [k, { ...v }])),
      unknownKeys: { ...this.unknown, keys: Object.fromEntries([...this.unknownKeys].map(([k, v]) => [k, { ...v }])) },
    };
  }

  /** Zeroes the counters; requests still in flight stay counted as in flight. */
  reset(): void {
    // In place: requests in flight hold these objects and will decrement them when answered.
    const keep = (s: AccountStats) => Object.assign(s, { ...empty(), inFlight: s.inFlight, maxInFlight: s.inFlight });
    keep(this.total);
    for (const m of [this.accounts, this.ips]) for (const v of m.values()) keep(v);
    Object.assign(this.unknown, { tokenRequests: 0, tokenRefused: 0, untracked: 0 });
    this.unknownKeys = new Map();
    this.epoch++;
  }
}
