/**
 * bench/load: 50 concurrent clients for 60 seconds against the dashboard, in front of the simulator
 * with the real upstream's limits on, as it reads them by default: 1 call in flight per account and
 * per client IP (every call of the dashboard leaves from one IP), and the 3/min, 10/h, 100/day
 * windows per account only (README, "Whose limits"; `--ip-rate-limits` would count them per IP too).
 * The dashboard runs its defaults: per-account windows, one call in flight for the deployment.
 *
 * Clients are signed in as five accounts and ask for a mix of searches — most of them repeats a
 * person would make (paging, zone, page size), some new — and lookups of transactions the same
 * account was shown. Prints:
 *  - the most upstream calls ever in flight at once (must be 1),
 *  - the upstream's 429s (must be 0: the dashboard never breaks a limit),
 *  - the dashboard's answers by status (only 200, and 429 with Retry-After, are acceptable),
 *  - latency percentiles of the dashboard's answers.
 *
 *   npm run bench:load            (BENCH_SECONDS and BENCH_CLIENTS change the defaults)
 */
import { formatWallClock } from '../lib/time/zones';
import { startSimulatorProcess, signIn, simStats, startDashboard } from './lib/processes';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const ACCOUNTS = [
  ['demo', 'demo-secret'],
  ['sakura-ops', 'sakura-ops-secret'],
  ['fuji', 'fuji-secret'],
  ['minato', 'minato-secret'],
  ['support', 'support-secret'],
] as const;
const HOUR = 3600_000;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

/** The URLs a person of this account would plausibly ask for, most of them repeats. */
function workload(seed: number): string[] {
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

async function main() {
  const sim = await startSimulatorProcess();
  // The dashboard's own wait bound is kept short so that a full window answers 429 quickly.
  const dash = await startDashboard({ upstreamUrl: sim.url, env: { UPSTREAM_QUEUE_WAIT_MS: '5000' } });
  const cookies = await Promise.all(ACCOUNTS.map(([k, s]) => signIn(dash.url, k, s)));
  const byStatus = new Map<string, number>();
  const latencies: number[] = [];
  let missingRetryAfter = 0;
  // Per account: a transaction is looked up by an account that saw it (another enterprise's is a 404).
  const seenBy: string[][] = ACCOUNTS.map(() => []);

  const deadline = Date.now() + SECONDS * 1000;
  async function client(i: number) {
    const cookie = cookies[i % cookies.length] as string;
    const seenTrx = seenBy[i % cookies.length] as string[];
    const urls = workload(i);
    let n = i;
    while (Date.now() < deadline) {
      n += 1;
      const lookup = n % 7 === 0 && seenTrx.length > 0;
      const path = lookup ? `/api/transactions/${seenTrx[n % seenTrx.length]}` : (urls[(n * 7919) % urls.length] as string);
      const started = performance.now();
      let status = 'error';
      try {
        const res = await fetch(`${dash.url}${path}`, { headers: { Cookie: cookie } });
        status = String(res.status);
        if (res.status === 429 && !res.headers.get('Retry-After')) missingRetryAfter += 1;
        const body = await res.text();
        if (res.status === 200 && path.startsWith('/api/transactions?') && seenTrx.length < 200) {
          const ids = (JSON.parse(body) as { _embedded: { cdrs: { trx_id: string }[] } })._embedded.cdrs.map((c) => c.trx_id);
          seenTrx.push(...ids.slice(0, 3));
        }
      } catch {
        status = 'error';
      }
      latencies.push(performance.now() - started);
      byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
    }
  }

  console.log(`bench/load — ${CLIENTS} clients for ${SECONDS} s, 5 accounts, simulator limits: 1 in flight per account and per IP, 3/min, 10/h, 100/day per account`);
  const started = Date.now();
  await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(i)));
  const elapsed = (Date.now() - started) / 1000;
  const stats = await simStats(sim.url);
  latencies.sort((a, b) => a - b);
  const answered = latencies.length;

  console.log(`\ndashboard answers: ${answered} in ${elapsed.toFixed(1)} s (${(answered / elapsed).toFixed(0)}/s)`);
  for (const [status, count] of [...byStatus].sort()) console.log(`  ${status.padEnd(6)} ${count}`);
  console.log(`  429 without Retry-After: ${missingRetryAfter}`);
  console.log(`latency ms: p50 ${percentile(latencies, 50).toFixed(1)}, p95 ${percentile(latencies, 95).toFixed(1)}, p99 ${percentile(latencies, 99).toFixed(1)}, max ${(latencies.at(-1) ?? 0).toFixed(1)}`);
  console.log(`\nupstream requests: ${stats.total.requests} (token requests ${stats.total.tokenRequests})`);
  console.log(`most upstream calls in flight at once: ${stats.total.maxInFlight}   (must be 1)`);
  console.log(`upstream 429s: ${stats.total.rateLimited}   (must be 0)`);
  const unexpected = [...byStatus.keys()].filter((s) => s !== '200' && s !== '429');
  const ok = stats.total.maxInFlight <= 1 && stats.total.rateLimited === 0 && unexpected.length === 0 && missingRetryAfter === 0;
  console.log(ok ? '\nOK: no limit broken, only 200 and 429 with Retry-After.' : `\nFAILED: ${unexpected.length ? `unexpected statuses ${unexpected.join(', ')}` : 'a limit was broken'}`);

  await dash.stop();
  await sim.stop();
  process.exit(ok ? 0 : 1);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
