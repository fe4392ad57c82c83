/**
 * bench/export: what a CSV export costs.
 *  1. Throughput and memory, the simulator's limits off: exports of 10,000 and 100,000 records
 *     (several 31-day windows) through a real `next start` — records per second from creation to
 *     done, the file streamed back and counted, and the server's resident memory: after start, and
 *     its peak over each export. Memory that does not grow with the file has the same peak for both.
 *  2. Calls against the ideal, the simulator's limits on: the upstream calls an export spends per
 *     record against records / page size, (a) at the real limits (1 in flight, 3/min, 10/h, 100/day)
 *     on a three-page export, and (b) at limits scaled up (same shape, 300/min) on 20,000 records,
 *     after a search that cached the first page. The simulator counts the calls and any 429.
 *
 *   npm run bench:export      (NEXT_DIST_DIR=.next-exports; the build is redone when sources are newer)
 */
import fs from 'node:fs';
import { startSimulator, type Limits, type RunningSimulator } from '../simulator/server';
import { formatWallClock } from '../lib/time/zones';
import { signIn, startDashboard, type Proc } from './lib/processes';

const DIST_DIR = process.env.NEXT_DIST_DIR ?? '.next-exports';
const PAGE_SIZE = 100;
const DAY = 86_400_000;

const limitsEnv = (
  l: { perMinute: number; perHour: number; perDay: number },
  reserve: number,
): Record<string, string> => ({
  UPSTREAM_LIMIT_PER_MINUTE: String(l.perMinute),
  UPSTREAM_LIMIT_PER_HOUR: String(l.perHour),
  UPSTREAM_LIMIT_PER_DAY: String(l.perDay),
  UPSTREAM_BACKGROUND_RESERVE: String(reserve),
  UPSTREAM_PAGE_SIZE: String(PAGE_SIZE),
});

// ---------------------------------------------------------------------------------------------

/** Peak and current resident memory of one process (Linux /proc). */
function memoryOf(pid: number): { rss: number; hwm: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/** Samples a process's RSS every 100 ms until stopped; returns the peak seen. */
function sampleRss(proc: Proc): { stop(): number } {
  let peak = proc.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, proc.rss());
  }, 100);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, proc.rss());
    },
  };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const fmt = (n: number) => n.toLocaleString('en-US');
const wall = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

interface Job {
  id: string;
  state: string;
  message: string | null;
  progress: {
    recordsFetched: number;
    callsSpent: number;
    pagesCached: number;
    windows: { totalFound: number | null }[];
  };
  countCheck: { ok: boolean; written: number; expected: number } | null;
  fileBytes: number | null;
  _links: { file?: { href: string } };
}

async function api<T>(base: string, cookie: string, method: string, url: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { Cookie: cookie, Accept: 'application/json', ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function runExport(
  base: string,
  cookie: string,
  body: Record<string, unknown>,
  timeoutMs: number,
): Promise<{ job: Job; ms: number }> {
  const started = performance.now();
  const created = await api<Job>(base, cookie, 'POST', '/api/exports', body);
  const until = Date.now() + timeoutMs;
  for (;;) {
    const job = await api<Job>(base, cookie, 'GET', `/api/exports/${created.id}`);
    if (job.state === 'done') return { job, ms: performance.now() - started };
    if (job.state === 'failed' || job.state === 'cancelled') throw new Error(`export ${job.state}: ${job.message}`);
    if (Date.now() > until) throw new Error(`export not done after ${timeoutMs} ms: ${JSON.stringify(job.progress)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Streams the file back and counts its records (CRLF outside quotes), without holding it. */
async function downloadAndCount(
  base: string,
  cookie: string,
  href: string,
): Promise<{ rows: number; bytes: number; ms: number }> {
  const started = performance.now();
  const res = await fetch(`${base}${href}`, { headers: { Cookie: cookie } });
  if (!res.ok || !res.body) throw new Error(`download: ${res.status}`);
  let bytes = 0;
  let lines = 0;
  let quoted = false;
  let previous = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (const b of chunk) {
      if (b === 0x22) quoted = !quoted;
      else if (b === 0x0a && previous === 0x0d && !quoted) lines += 1;
      previous = b;
    }
  }
  return { rows: lines - 1, bytes, ms: performance.now() - started };
}

/** The end of a range from `from` holding `count` records of the simulator (to the second). */
function endForCount(sim: RunningSimulator, from: number, count: number, enterpriseId: string | null): number {
  let lo = from + 1000;
  let hi = Date.now() - 60_000;
  const total = (to: number) => sim.dataset.query({ from, to, enterpriseId, limit: 1 }).total;
  if (total(hi) < count) throw new Error(`the simulator holds only ${total(hi)} records after ${wall(from)}`);
  while (hi - lo > 1000) {
    const mid = Math.floor((lo + hi) / 2000) * 1000;
    if (total(mid) >= count) hi = mid;
    else lo = mid;
  }
  return hi;
}

// ---------------------------------------------------------------------------------------------

async function throughput(): Promise<void> {
  const sim = await startSimulator({ port: 0, limits: false, quiet: true, seed: 5, days: 60, perDay: 3000 });
  const dash = await startDashboard({
    upstreamUrl: sim.url,
    distDir: DIST_DIR,
    env: limitsEnv({ perMinute: 1_000_000, perHour: 1_000_000, perDay: 1_000_000 }, 0),
  });
  try {
    // The support key sees every enterprise: about 3,000 records a day.
    const cookie = await signIn(dash.url, 'support', 'support-secret');
    const pid = dash.child.pid as number;
    const atStart = memoryOf(pid);
    console.log(`\n1. Throughput and memory (simulator limits off, page size ${PAGE_SIZE}, all columns)`);
    console.log(`   server after start and sign-in: ${mb(atStart.rss)} resident`);
    const from = Math.floor((Date.now() - 50 * DAY) / DAY) * DAY;
    for (const count of [10_000, 100_000]) {
      const to = endForCount(sim, from, count, null);
      const expected = sim.dataset.query({ from, to, enterpriseId: null, limit: 1 }).total;
      const sampler = sampleRss(dash);
      // Asked in JST (the file's timestamps too): the same instants as wall clocks of that zone.
      const jst = (ms: number) => formatWallClock(new Date(ms), 'JST');
      const { job, ms } = await runExport(
        dash.url,
        cookie,
        { 'date-from': jst(from), 'date-to': jst(to), tz: 'JST', 'sort-order': 'asc' },
        30 * 60_000,
      );
      const file = await downloadAndCount(dash.url, cookie, job._links.file!.href);
      const peak = sampler.stop();
      const windows = job.progress.windows.length;
      console.log(
        `   ${fmt(job.progress.recordsFetched)} records (${fmt(expected)} in the simulator, ${windows} window${windows === 1 ? '' : 's'}, ${fmt(job.progress.callsSpent)} calls): ` +
          `${(ms / 1000).toFixed(1)} s = ${fmt(Math.round(job.progress.recordsFetched / (ms / 1000)))} records/s; ` +
          `file ${mb(file.bytes)}, ${fmt(file.rows)} rows streamed back in ${(file.ms / 1000).toFixed(1)} s; count check ${job.countCheck?.ok ? 'ok' : 'MISMATCH'}; ` +
          `server peak ${mb(peak)} resident (+${mb(peak - atStart.rss)} over start)`,
      );
      if (file.rows !== expected || job.progress.recordsFetched !== expected)
        throw new Error(`expected ${expected} records, the file has ${file.rows}`);
    }
    console.log(`   server peak over its whole life (VmHWM): ${mb(memoryOf(pid).hwm)}`);
  } finally {
    await dash.stop();
    await sim.close();
    fs.rmSync(dash.dataDir, { recursive: true, force: true });
  }
}

interface CallsCase {
  label: string;
  limits: Limits;
  reserve: number;
  records: number;
  searchFirst: boolean;
  timeoutMs: number;
}

async function callsAgainstIdeal(c: CallsCase): Promise<void> {
  const sim = await startSimulator({ port: 0, limits: c.limits, quiet: true, seed: 9, days: 30, perDay: 3000 });
  const dash = await startDashboard({ upstreamUrl: sim.url, distDir: DIST_DIR, env: limitsEnv(c.limits, c.reserve) });
  try {
    const cookie = await signIn(dash.url, 'demo', 'demo-secret');
    const from = Math.floor((Date.now() - 20 * DAY) / DAY) * DAY;
    const to = endForCount(sim, from, c.records, 'ent-sakura');
    const query = { 'date-from': wall(from), 'date-to': wall(to), tz: 'UTC', 'sort-order': 'desc' };
    if (c.searchFirst)
      await api(
        dash.url,
        cookie,
        'GET',
        `/api/transactions?${new URLSearchParams({ ...query, 'page-size': '25', page: '1' })}`,
      );
    const before = sim.stats().accounts.demo?.queryRequests ?? 0;
    const { job, ms } = await runExport(dash.url, cookie, query, c.timeoutMs);
    const stats = sim.stats().accounts.demo;
    const records = job.progress.recordsFetched;
    const ideal = Math.ceil(records / PAGE_SIZE);
    const asked = (stats?.queryRequests ?? 0) - before;
    console.log(
      `   ${c.label}: ${fmt(records)} records in ${(ms / 1000).toFixed(1)} s; ${fmt(job.progress.callsSpent)} calls spent + ${job.progress.pagesCached} page${job.progress.pagesCached === 1 ? '' : 's'} from the cache ` +
        `(the simulator answered ${fmt(asked)} queries, ${stats?.rateLimited ?? 0} of them 429); ideal ${fmt(ideal)} = ${fmt(records)}/${PAGE_SIZE}: ` +
        `${(job.progress.callsSpent / records).toFixed(4)} calls per record against ${(1 / PAGE_SIZE).toFixed(4)} (${((100 * job.progress.callsSpent) / ideal).toFixed(1)}% of ideal)`,
    );
  } finally {
    await dash.stop();
    await sim.close();
    fs.rmSync(dash.dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  await throughput();
  console.log(
    '\n2. Calls per record against the ideal (simulator limits on; the dashboard configured to the same limits, 3 calls an hour kept for people)',
  );
  await callsAgainstIdeal({
    label: 'real limits 1 in flight, 3/min, 10/h, 100/day',
    limits: { maxInFlight: 1, perMinute: 3, perHour: 10, perDay: 100 },
    reserve: 3,
    records: 250,
    searchFirst: false,
    timeoutMs: 120_000,
  });
  await callsAgainstIdeal({
    label: 'scaled limits 1 in flight, 300/min, 20,000/h, 200,000/day, after a search',
    limits: { maxInFlight: 1, perMinute: 300, perHour: 20_000, perDay: 200_000 },
    reserve: 3,
    records: 20_000,
    searchFirst: true,
    timeoutMs: 10 * 60_000,
  });
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});
