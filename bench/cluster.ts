/**
 * bench/cluster: two production instances of the dashboard on one PostgreSQL (DATABASE_URL, the
 * same NEXTAUTH_SECRET), 25 clients on each for 60 seconds, in front of the simulator at the seed's
 * limits (1 call in flight, 3/min, 10/h, 100/day per account and per IP).
 *
 * Five accounts sign in, each on one of the instances, and every client uses its cookie on either
 * instance (a cookie of one instance works on the other). The workload is bench/load's
 * (bench/lib/workload.ts). Prints:
 *  - the most upstream calls ever in flight at once, both instances together (must be 1),
 *  - the upstream's 429s (must be 0: the two instances never break a limit between them),
 *  - the dashboard's answers by status, for both instances and each (only 200, and 429 with
 *    Retry-After, are acceptable), and their latency percentiles.
 *
 * PostgreSQL is a throwaway cluster (tests/support/postgres.ts: Debian's binaries, a temporary
 * folder, removed at the end); the build is made once (NEXT_DIST_DIR, default .next-bench) and
 * both instances start from it, at the same time (their migrations meet on one fresh database).
 *
 *   npm run bench:cluster      (BENCH_CLIENTS: clients per instance; BENCH_SECONDS)
 */
import { createDatabase, startPostgres } from '../tests/support/postgres';
import { ensureBuild } from '../scripts/lib/build';
import { ROOT, signIn, simStats, startDashboard, startSimulatorProcess } from './lib/processes';
import { ACCOUNTS, AnswerTally, runClients } from './lib/workload';

const CLIENTS_PER_INSTANCE = Number(process.env.BENCH_CLIENTS ?? 25);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const DIST_DIR = process.env.NEXT_DIST_DIR ?? '.next-bench';
const INSTANCES = ['A', 'B'] as const;

async function main() {
  ensureBuild(ROOT, DIST_DIR);
  const postgres = await startPostgres();
  const database = await createDatabase(postgres.url, 'bench_cluster');
  const sim = await startSimulatorProcess();
  // The dashboards' own wait bound is kept short so that a full window answers 429 quickly.
  const env = { DATABASE_URL: database.url, UPSTREAM_QUEUE_WAIT_MS: '5000' };
  const dashboards = await Promise.all(
    INSTANCES.map(() => startDashboard({ upstreamUrl: sim.url, distDir: DIST_DIR, build: false, env })),
  );
  const cookies = await Promise.all(ACCOUNTS.map(([k, s], i) => signIn(dashboards[i % dashboards.length]!.url, k, s)));

  const all = new AnswerTally();
  const byInstance = INSTANCES.map(() => new AnswerTally());
  const clients = CLIENTS_PER_INSTANCE * dashboards.length;
  console.log(
    `bench/cluster — ${dashboards.length} instances × ${CLIENTS_PER_INSTANCE} clients for ${SECONDS} s, 5 accounts (each signed in on one instance, used on both), one PostgreSQL, simulator limits 1 in flight, 3/min, 10/h, 100/day`,
  );
  const elapsed = await runClients(clients, SECONDS, (i) => {
    const instance = i % dashboards.length;
    // Each account's clients are spread over both instances: half of them use a cookie the other instance issued.
    return {
      baseUrl: dashboards[instance]!.url,
      cookie: cookies[Math.floor(i / dashboards.length) % cookies.length]!,
      tallies: [all, byInstance[instance]!],
    };
  });
  const stats = await simStats(sim.url);

  console.log('\nboth instances');
  all.print(elapsed);
  INSTANCES.forEach((name, i) => {
    console.log(`instance ${name}`);
    byInstance[i]!.print(elapsed, '    ');
  });
  console.log(`\nupstream requests: ${stats.total.requests} (token requests ${stats.total.tokenRequests})`);
  console.log(
    `  by account: ${Object.entries(stats.accounts)
      .map(([account, s]) => `${account} ${s.requests} + ${s.tokenRequests} token`)
      .join(', ')}`,
  );
  console.log(`most upstream calls in flight at once: ${stats.total.maxInFlight}   (must be 1)`);
  console.log(`upstream 429s: ${stats.total.rateLimited}   (must be 0)`);
  const unexpected = all.unexpected();
  const ok =
    stats.total.maxInFlight <= 1 &&
    stats.total.rateLimited === 0 &&
    unexpected.length === 0 &&
    all.missingRetryAfter === 0;
  console.log(
    ok
      ? '\nOK: no limit broken across the instances, only 200 and 429 with Retry-After.'
      : `\nFAILED: ${unexpected.length ? `unexpected statuses ${unexpected.join(', ')}` : 'a limit was broken'}`,
  );

  await Promise.all(dashboards.map((d) => d.stop()));
  await sim.stop();
  await database.drop();
  await postgres.stop();
  process.exit(ok ? 0 : 1);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
