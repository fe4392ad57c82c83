/**
 * What the load benchmarks ask of the dashboard: the accounts signed in, the URLs a person of an
 * account plausibly asks for (most of them repeats: paging, zone, page size, status; some new), and
 * the percentiles they report. Shared by bench/load (one instance) and bench/cluster (two).
 */
import { formatWallClock } from '../../lib/time/zones';

export const ACCOUNTS = [
  ['demo', 'demo-secret'],
  ['sakura-ops', 'sakura-ops-secret'],
  ['fuji', 'fuji-secret'],
  ['minato', 'minato-secret'],
  ['support', 'support-secret'],
] as const;

const HOUR = 3600_000;

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

/** The URLs a person of this account would plausibly ask for, most of them repeats. */
export function workload(seed: number): string[] {
  const now = Date.now();
  const urls: string[] = [];
  const ranges = [
    [now - 10 * 24 * HOUR, now - 5 * 24 * HOUR],
    [now - 24 * HOUR, now],
    [now - 40 * 24 * HOUR, now - 33 * 24 * HOUR],
  ];
  const statuses = ['', 'DELIVRD', 'UNDELIV', 'EXPIRED'];
  for (const [from, to] of ranges) {
    for (const status of statuses) {
      for (const tz of ['UTC', 'JST'] as const) {
        for (const page of ['1', '2', '3']) {
          const params = new URLSearchParams({
            'date-from': formatWallClock(new Date(from as number), tz),
            'date-to': formatWallClock(new Date(to as number), tz),
            tz,
            'page-size': String([25, 50][(seed + Number(page)) % 2]),
            page,
          });
          if (status) params.set('status', status);
          urls.push(`/api/transactions?${params}`);
        }
      }
    }
  }
  urls.push('/api/quota');
  return urls;
}

/** The answers of a run: counts by status, 429s that lacked Retry-After, latencies. */
export class AnswerTally {
  readonly byStatus = new Map<string, number>();
  readonly latencies: number[] = [];
  missingRetryAfter = 0;

  note(status: string, ms: number, retryAfter: string | null): void {
    this.latencies.push(ms);
    this.byStatus.set(status, (this.byStatus.get(status) ?? 0) + 1);
    if (status === '429' && !retryAfter) this.missingRetryAfter += 1;
  }

  /** Statuses other than 200 and 429 (errors included). */
  unexpected(): string[] {
    return [...this.byStatus.keys()].filter((s) => s !== '200' && s !== '429');
  }

  print(elapsedSeconds: number, indent = '  '): void {
    const sorted = [...this.latencies].sort((a, b) => a - b);
    console.log(
      `${indent}answers: ${sorted.length} in ${elapsedSeconds.toFixed(1)} s (${(sorted.length / elapsedSeconds).toFixed(0)}/s)`,
    );
    for (const [status, count] of [...this.byStatus].sort()) console.log(`${indent}  ${status.padEnd(6)} ${count}`);
    console.log(`${indent}  429 without Retry-After: ${this.missingRetryAfter}`);
    console.log(
      `${indent}latency ms: p50 ${percentile(sorted, 50).toFixed(1)}, p95 ${percentile(sorted, 95).toFixed(1)}, p99 ${percentile(sorted, 99).toFixed(1)}, max ${(sorted.at(-1) ?? 0).toFixed(1)}`,
    );
  }
}

/** Where client `i` sends its requests, with which session, and which tallies note its answers. */
export interface ClientTarget {
  baseUrl: string;
  cookie: string;
  tallies: AnswerTally[];
}

/**
 * `count` clients, each asking one request after another for `seconds`: searches from its workload
 * and, every seventh request, a lookup of a trx_id its session saw in an earlier answer. Returns the seconds
 * the run took.
 */
export async function runClients(
  count: number,
  seconds: number,
  targetOf: (i: number) => ClientTarget,
): Promise<number> {
  // Ids seen by each session: an account looks up its own records (another's is a 404, rightly).
  const seen = new Map<string, string[]>();
  const deadline = Date.now() + seconds * 1000;
  async function client(i: number) {
    const { baseUrl, cookie, tallies } = targetOf(i);
    const urls = workload(i);
    if (!seen.has(cookie)) seen.set(cookie, []);
    const seenTrx = seen.get(cookie)!;
    let n = i;
    while (Date.now() < deadline) {
      n += 1;
      const lookup = n % 7 === 0 && seenTrx.length > 0;
      const path = lookup
        ? `/api/transactions/${seenTrx[n % seenTrx.length]}`
        : (urls[(n * 7919) % urls.length] as string);
      const started = performance.now();
      let status = 'error';
      let retryAfter: string | null = null;
      try {
        const res = await fetch(`${baseUrl}${path}`, { headers: { Cookie: cookie } });
        status = String(res.status);
        retryAfter = res.headers.get('Retry-After');
        const body = await res.text();
        if (res.status === 200 && path.startsWith('/api/transactions?') && seenTrx.length < 200) {
          const ids = (JSON.parse(body) as { _embedded: { cdrs: { trx_id: string }[] } })._embedded.cdrs.map(
            (c) => c.trx_id,
          );
          seenTrx.push(...ids.slice(0, 3));
        }
      } catch {
        status = 'error';
      }
      const ms = performance.now() - started;
      for (const t of tallies) t.note(status, ms, retryAfter);
    }
  }
  const started = Date.now();
  await Promise.all(Array.from({ length: count }, (_, i) => client(i)));
  return (Date.now() - started) / 1000;
}
