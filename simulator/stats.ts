/**
 * What the simulator saw, so a test can assert how a client behaved: how many query/detail calls,
 * how many at once at most, how many were refused. Kept per account (the API key of the token), per
 * client IP and in total.
 */

export interface AccountStats {
  /** query + detail requests. */
  requests: number;
  tokenRequests: number;
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

export interface SimStats {
  total: AccountStats;
  accounts: Record<string, AccountStats>;
  ips: Record<string, AccountStats>;
}

export type RequestKind = 'query' | 'detail';

const empty = (): AccountStats => ({
  requests: 0,
  tokenRequests: 0,
  queryRequests: 0,
  detailRequests: 0,
  inFlight: 0,
  maxInFlight: 0,
  rateLimited: 0,
  errors: 0,
});

export class StatsRecorder {
  private readonly total = empty();
  private accounts = new Map<string, AccountStats>();
  private ips = new Map<string, AccountStats>();

  private targets(ip: string, account: string | null): AccountStats[] {
    const get = (m: Map<string, AccountStats>, k: string) => m.get(k) ?? m.set(k, empty()).get(k)!;
    const out = [this.total, get(this.ips, ip)];
    if (account !== null) out.push(get(this.accounts, account));
    return out;
  }

  tokenRequest(ip: string, account: string | null): void {
    for (const s of this.targets(ip, account)) s.tokenRequests++;
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
    };
  }

  /** Zeroes the counters; requests still in flight stay counted as in flight. */
  reset(): void {
    // In place: requests in flight hold these objects and will decrement them when answered.
    const keep = (s: AccountStats) => Object.assign(s, { ...empty(), inFlight: s.inFlight, maxInFlight: s.inFlight });
    keep(this.total);
    for (const m of [this.accounts, this.ips]) for (const v of m.values()) keep(v);
  }
}
