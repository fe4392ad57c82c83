/**
 * bench/load: 50 concurrent clients for 60 seconds against the dashboard, in front of the simulator
 * with the real upstream's limits on, as it reads them by default: 1 call in flight per account and
 * per client IP (every call of the dashboard leaves from one IP), and the 3/min, 10/h, 100/day
 * windows per account only (README, "Whose limits"; `--ip-rate-limits` would count them per IP too).
 * The dashboard runs its defaults: per-account windows, one call in flight for the deployment.
 *
 * Clients are signed in as five accounts and ask for a mix of searches — most of them repeats a
 * person would make (paging, zone, page size), some new — and transaction lookups (bench/lib/workload.ts). Prints:
 *  - the most upstream calls ever in flight at once (must be 1),
 *  - the upstream's 429s (must be 0: the dashboard never breaks a limit),
 *  - the dashboard's answers by status (only 200, and 429 with Retry-After, are acceptable),
 *  - latency percentiles of the dashboard's answers.
 * Then (bench/lib/free-text-load.ts): 20 clients reading cached pages while one person runs `q=000`
 * over 31 days of 1,000,000 local records; p99 of the others' pages, alone and beside it.
 *
 *   npm run bench:load            (BENCH_SECONDS and BENCH_CLIENTS change the defaults; BENCH_PARTS=1
 *                                  or 2 runs one part; BENCH_LOAD_RECORDS the local records of part 2)
 */
import { startSimulatorProcess, signIn, simStats, startDashboard } from './lib/processes';
import { freeTextBesideCachedPages } from './lib/free-text-load';
import { ACCOUNTS, AnswerTally, runClients } from './lib/workload';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const PARTS = new Set((process.env.BENCH_PARTS ?? '1,2').split(',').map((p) => p.trim()));

async function main() {
  // Held until the summary is printed: the local history's writer thread does not keep the process
  // alive, so while the second part waits only on it (loading 1,000,000 records, the text index
  // catching up) Node would see nothing left to do and end with exit code 0, printing nothing.
  const alive = setInterval(() => undefined, 60_000);
  let ok = true;
  const summary: string[] = [];
  if (PARTS.has('1')) ok = (await limitsUnderLoad(summary)) && ok;
  if (PARTS.has('2')) {
    const freeText = await freeTextBesideCachedPages();
    summary.push(freeText.line);
    ok = freeText.ok && ok;
  }
  console.log('\nSummary');
  for (const line of summary) console.log(`   ${line}`);
  clearInterval(alive);
  process.exit(ok ? 0 : 1);
}

async function limitsUnderLoad(summary: string[]): Promise<boolean> {
  const sim = await startSimulatorProcess();
  // The dashboard's own wait bound is kept short so that a full window answers 429 quickly.
  const dash = await startDashboard({ upstreamUrl: sim.url, env: { UPSTREAM_QUEUE_WAIT_MS: '5000' } });
  const cookies = await Promise.all(ACCOUNTS.map(([k, s]) => signIn(dash.url, k, s)));
  const tally = new AnswerTally();

  console.log(
    `bench/load — ${CLIENTS} clients for ${SECONDS} s, 5 accounts, simulator limits: 1 in flight per account and per IP, 3/min, 10/h, 100/day per account`,
  );
  const elapsed = await runClients(CLIENTS, SECONDS, (i) => ({
    baseUrl: dash.url,
    cookie: cookies[i % cookies.length] as string,
    tallies: [tally],
  }));
  const stats = await simStats(sim.url);

  console.log('\ndashboard');
  tally.print(elapsed);
  console.log(`\nupstream requests: ${stats.total.requests} (token requests ${stats.total.tokenRequests})`);
  console.log(`most upstream calls in flight at once: ${stats.total.maxInFlight}   (must be 1)`);
  console.log(`upstream 429s: ${stats.total.rateLimited}   (must be 0)`);
  const unexpected = tally.unexpected();
  const ok =
    stats.total.maxInFlight <= 1 &&
    stats.total.rateLimited === 0 &&
    unexpected.length === 0 &&
    tally.missingRetryAfter === 0;
  const verdict = ok
    ? 'OK: no limit broken, only 200 and 429 with Retry-After.'
    : `FAILED: ${unexpected.length ? `unexpected statuses ${unexpected.join(', ')}` : 'a limit was broken'}`;
  console.log(`\n${verdict}`);
  summary.push(`${CLIENTS} clients × ${SECONDS} s at the real limits: ${verdict}`);

  await dash.stop();
  await sim.stop();
  return ok;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
