/**
 * bench/read: what a read costs once the upstream has been asked, against one production server
 * (`next build`, `next start`) and the simulator (a process of its own, limits off):
 *  1. Rate: GET /api/quota, a cached page of GET /api/transactions, and that page asked again with
 *     its ETag in If-None-Match (a 304), back to back in alternating rounds, each a closed loop of
 *     BENCH_CONNECTIONS keep-alive connections for BENCH_SECONDS; every one carries the same session
 *     check. Prints requests/s of each round and its ratios to /api/quota (the median over the
 *     rounds is the figure), and the server's CPU time per answer.
 *  2. Latency at a fixed rate: 200 requests a second of cached pages for 15 s, sent on schedule
 *     whether or not earlier ones answered, latency counted from when each was due: p50/p90/p99/max;
 *     first the dashboard's default pages (25 records: pages 1–4 in both zones), then a mix with
 *     pages of 50 and 100 too (all from one cached upstream page).
 *  3. Memory: the server's resident memory (and its JavaScript heap, from /api/metrics) before and
 *     after every 100,000 distinct cached pages asked for, up to 300,000 (put into the store through
 *     its API before the server starts: in each 100,000, 99,000 of 2 records and, asked last, 1,000
 *     full pages of 100, so the in-memory page cache is full of the largest pages at every
 *     checkpoint). Memory must hold still: after 300,000 no more than 10% above after 100,000. The
 *     simulator counts the upstream calls meanwhile: none.
 *  4. Export: a week of every enterprise (about 20,000 records) exported as CSV, per upstream page:
 *     until its last page was read (seen by status polls every 100 ms) and until done, file
 *     included (the server's own createdAt/finishedAt); then the same pages asked of the simulator
 *     directly, one after another: the difference is the export's own cost per page. The server's
 *     CPU time per page too.
 *
 *   npm run bench:read    (NEXT_DIST_DIR, default .next-bench; rebuilt when sources are newer)
 *   BENCH_SECONDS (2), BENCH_ROUNDS (9), BENCH_CONNECTIONS (10), BENCH_PAGES (100000) change the defaults;
 *   BENCH_PARTS (1,2,3,4) runs only the parts listed (e.g. 4: the export alone, while working on it).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import autocannon from 'autocannon';
import type { Cdr } from '../lib/cdr/schema';
import { formatWallClock } from '../lib/time/zones';
import { apiGet, getToken, queryPath } from '../simulator/test-client';
import { keepAliveClient } from './lib/http-client';
import { signIn, simStats, startDashboard, startSimulatorProcess, untilQuiet, type Proc } from './lib/processes';
import { seededPath, seedPages } from './lib/seed-pages';

const DIST_DIR = process.env.NEXT_DIST_DIR ?? '.next-bench';
const ROUND_SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SEEDED_PAGES = Number(process.env.BENCH_PAGES ?? 300_000);
/** Pages between two memory checkpoints; the last FULL_PAGES of each are full pages. */
const BLOCK = Math.min(100_000, SEEDED_PAGES);
const FULL_PAGES = Math.min(1_000, BLOCK);
const METRICS_TOKEN = 'bench-metrics-token-0123456789';
const FIXED_RATE = 200;
const FIXED_SECONDS = 15;
const EXPORT_DAYS = 7;
const PAGE_SIZE = 100;
const DAY = 86_400_000;
const BIG = '1000000';
const PARTS = new Set((process.env.BENCH_PARTS ?? '1,2,3,4').split(',').map((p) => p.trim()));

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const mb = (bytes: number) => `${fmt(bytes / 1024 / 1024)} MB`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const wall = (ms: number) => formatWallClock(new Date(ms), 'UTC');
const dayStart = (ms: number) => Math.floor(ms / DAY) * DAY;

function pageUrl(from: number, to: number, tz: 'UTC' | 'JST', pageSize: number, page: number): string {
  const params = new URLSearchParams({
    'date-from': formatWallClock(new Date(from), tz),
    'date-to': formatWallClock(new Date(to), tz),
    tz,
    'page-size': String(pageSize),
    page: String(page),
  });
  return `/api/transactions?${params}`;
}

/** A closed loop of CONNECTIONS connections; also the server's CPU time per answer (robust to a busy machine). */
async function closedLoop(
  server: Proc,
  url: string,
  headers: Record<string, string>,
  seconds: number,
): Promise<{ rate: number; other: number; cpuUs: number }> {
  const cpuBefore = server.cpuMs();
  const r = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers });
  const ok = r['2xx'] + r['3xx'];
  return {
    rate: ok / r.duration,
    other: r.non2xx - r['3xx'] + r.errors + r.timeouts,
    cpuUs: ((server.cpuMs() - cpuBefore) * 1000) / Math.max(1, ok),
  };
}

async function main(): Promise<void> {
  console.log(`bench/read — ${new Date().toISOString()}, ${os.cpus().length} cores, load average ${load()}`);
  const sim = await startSimulatorProcess(['--no-limits', '--days', '60', '--seed', '7']);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sms-dash-read-'));
  const now = Date.now();

  // Records for the seeded pages: a real page of the simulator.
  const simToken = await getToken(sim, 'demo', 'demo-secret');
  const sample = await apiGet(
    sim,
    queryPath({
      'date-from': wall(now - 20 * DAY),
      'date-to': wall(now - 10 * DAY),
      'page-size': PAGE_SIZE,
      page: 1,
      tz: 'UTC',
    }),
    simToken,
  );
  const records = sample.json<{ _embedded: { cdrs: Cdr[] } }>()._embedded.cdrs;
  // One page a minute of ranges, every one settled (ended more than 72 h ago): the first far enough back.
  const seeded = { firstFrom: dayStart(now - Math.ceil(SEEDED_PAGES / 1440 + 10) * DAY) };
  const seedStarted = performance.now();
  if (PARTS.has('3')) {
    await seedPages({
      dataDir,
      account: 'demo',
      records,
      pages: SEEDED_PAGES,
      recordsOf: (i) => (i % BLOCK >= BLOCK - FULL_PAGES ? PAGE_SIZE : 2),
      firstFrom: seeded.firstFrom,
      pageSize: PAGE_SIZE,
    });
    console.log(
      `seeded ${fmt(SEEDED_PAGES)} cached pages into the store in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
    );
  }

  const limits = {
    UPSTREAM_LIMIT_PER_MINUTE: BIG,
    UPSTREAM_LIMIT_PER_HOUR: BIG,
    UPSTREAM_LIMIT_PER_DAY: BIG,
    UPSTREAM_BACKGROUND_RESERVE: '0',
    UPSTREAM_PAGE_SIZE: String(PAGE_SIZE),
    METRICS_TOKEN,
  };
  const dash = await startDashboard({ upstreamUrl: sim.url, distDir: DIST_DIR, dataDir, env: limits });
  const results: string[] = [];
  try {
    const cookie = await signIn(dash.url, 'demo', 'demo-secret');
    const headers = { Cookie: cookie, Accept: 'application/json' };
    const client = keepAliveClient(dash.url, headers);

    // One settled week, read from the upstream once; every URL below is answered from that page.
    const from = dayStart(now - 20 * DAY);
    const to = from + 7 * DAY;
    const mix: string[] = [];
    for (const tz of ['UTC', 'JST'] as const) {
      for (const page of [1, 2, 3, 4]) mix.push(pageUrl(from, to, tz, 25, page));
      for (const page of [1, 2]) mix.push(pageUrl(from, to, tz, 50, page));
      mix.push(pageUrl(from, to, tz, 100, 1));
    }
    const pagePath = mix[0] as string;
    const first = await fetch(`${dash.url}${pagePath}`, { headers });
    const etag = first.headers.get('etag');
    const firstMeta = ((await first.json()) as { _meta: { source: string } })._meta;
    if (first.status !== 200 || !etag || firstMeta.source !== 'upstream')
      throw new Error(`the first page: ${first.status}, ETag ${etag}, ${firstMeta.source}`);
    for (const url of mix) {
      const res = await fetch(`${dash.url}${url}`, { headers });
      const meta = ((await res.json()) as { _meta: { source: string } })._meta;
      if (res.status !== 200 || meta.source !== 'cache')
        throw new Error(`${url}: ${res.status} from ${meta.source}, not the cache`);
    }
    const conditional = await fetch(`${dash.url}${pagePath}`, { headers: { ...headers, 'If-None-Match': etag } });
    if (conditional.status !== 304) throw new Error(`If-None-Match answered ${conditional.status}, not 304`);

    if (PARTS.has('1')) {
      // 1. Rate, alternating rounds after a warm-up of each.
      const quotaUrl = `${dash.url}/api/quota`;
      const cases = [
        { name: 'GET /api/quota', url: quotaUrl, headers },
        { name: 'cached page (25 records)', url: `${dash.url}${pagePath}`, headers },
        {
          name: 'same page, If-None-Match → 304',
          url: `${dash.url}${pagePath}`,
          headers: { ...headers, 'If-None-Match': etag },
        },
      ];
      for (const c of cases) await closedLoop(dash, c.url, c.headers, 2);
      console.log(
        `\n1. Rate: ${CONNECTIONS} connections, ${ROUNDS} rounds of ${ROUND_SECONDS} s each, alternating (requests/s, and the server's CPU per answer)`,
      );
      // Each round's ratios are taken within the round (seconds apart): the machine's other load
      // moves between rounds more than within one. The figures are the medians over the rounds.
      const ratios = { page: [] as number[], notModified: [] as number[] };
      const cpu = cases.map(() => [] as number[]);
      for (let round = 1; round <= ROUNDS; round++) {
        const line: string[] = [];
        const rates: number[] = [];
        for (const [i, c] of cases.entries()) {
          const r = await closedLoop(dash, c.url, c.headers, ROUND_SECONDS);
          if (r.other > 0) throw new Error(`${c.name}: ${r.other} answers that were neither 2xx nor 304`);
          rates.push(r.rate);
          cpu[i]!.push(r.cpuUs);
          line.push(`${c.name} ${fmt(r.rate)} (${fmt(r.cpuUs)} µs)`);
        }
        const [quotaRate, pageRate, notModifiedRate] = rates as [number, number, number];
        ratios.page.push(pageRate / quotaRate);
        ratios.notModified.push(notModifiedRate / quotaRate);
        console.log(
          `   round ${String(round).padStart(2)}: ${line.join(' · ')}; page ${(pageRate / quotaRate).toFixed(2)}×   (load ${load()})`,
        );
      }
      const ratio = median(ratios.page);
      const notModifiedRatio = median(ratios.notModified);
      const [quotaCpu, pageCpu, notModifiedCpu] = cpu.map(median) as [number, number, number];
      console.log(
        `   medians of the rounds: cached page ${ratio.toFixed(2)}× the rate of /api/quota, 304 ${notModifiedRatio.toFixed(2)}×`,
      );
      console.log(
        `   server CPU per answer: quota ${fmt(quotaCpu)} µs, cached page ${fmt(pageCpu)} µs (${(quotaCpu / pageCpu).toFixed(2)}×), 304 ${fmt(notModifiedCpu)} µs`,
      );
      results.push(
        `cached page at ${ratio.toFixed(2)}× the rate of /api/quota (target ≥ 0.80); 304 at ${notModifiedRatio.toFixed(2)}×; by server CPU per answer ${(quotaCpu / pageCpu).toFixed(2)}×`,
      );
    }

    if (PARTS.has('2')) {
      // 2. Latency at a fixed rate, open loop: the dashboard's default pages (25 records), then every size.
      const fixedRate = async (urls: readonly string[], seconds = FIXED_SECONDS) => {
        const latencies: number[] = [];
        const statuses = new Map<number, number>();
        const interval = 1000 / FIXED_RATE;
        const count = FIXED_RATE * seconds;
        const start = performance.now() + 50;
        // The load generator's own stalls (its GC, its timers) would count as the server's latency:
        // they are measured and printed beside it.
        const ownDelay = monitorEventLoopDelay({ resolution: 1 });
        ownDelay.enable();
        await Promise.all(
          Array.from({ length: count }, async (_, i) => {
            const due = start + i * interval;
            await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
            const answer = await client.get(urls[i % urls.length] as string);
            latencies.push(performance.now() - due);
            statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          }),
        );
        ownDelay.disable();
        latencies.sort((a, b) => a - b);
        const own = `the load generator's own event-loop delay p99 ${(ownDelay.percentile(99) / 1e6).toFixed(1)} ms, max ${(ownDelay.max / 1e6).toFixed(1)} ms`;
        const line = `p50 ${percentile(latencies, 50).toFixed(1)} ms · p90 ${percentile(latencies, 90).toFixed(1)} ms · p99 ${percentile(latencies, 99).toFixed(1)} ms · max ${(latencies.at(-1) ?? 0).toFixed(1)} ms; statuses ${[...statuses].map(([s, n]) => `${s}×${fmt(n)}`).join(', ')}; ${own}`;
        return { p99: percentile(latencies, 99), line };
      };
      const defaultPages = mix.filter((url) => url.includes('page-size=25'));
      console.log(
        `\n2. Latency at ${FIXED_RATE} requests/s for ${FIXED_SECONDS} s each, open loop (counted from when each request was due)`,
      );
      // Three seconds at the same rate first, not counted: the client's connections and code warm up.
      await fixedRate(mix, 3);
      const byDefault = await fixedRate(defaultPages);
      console.log(
        `   ${defaultPages.length} pages of 25 (pages 1–4, both zones): ${byDefault.line}   (load ${load()})`,
      );
      const bySize = await fixedRate(mix);
      console.log(`   ${mix.length} pages of 25, 50 and 100: ${bySize.line}   (load ${load()})`);
      results.push(
        `p99 ${byDefault.p99.toFixed(1)} ms at ${FIXED_RATE} cached pages of 25 a second (target < 20 ms); ${bySize.p99.toFixed(1)} ms with pages of 50 and 100 among them`,
      );
    }

    if (PARTS.has('3')) {
      // 3. Memory over SEEDED_PAGES distinct cached pages, a checkpoint after every BLOCK.
      const callsBefore = (await simStats(sim.url)).accounts.demo?.requests ?? 0;
      /** The server's JavaScript heap as its own metrics say (used / allocated), to tell a heap that grows from native memory that does. */
      const heap = async () => {
        const text = await (
          await fetch(`${dash.url}/api/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })
        ).text();
        const of = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
        return `heap ${mb(of('nodejs_heap_size_used_bytes'))} of ${mb(of('nodejs_heap_size_total_bytes'))}, external ${mb(of('nodejs_external_memory_bytes'))}`;
      };
      const rssBefore = dash.rss();
      console.log(
        `\n3. Memory: ${fmt(SEEDED_PAGES)} distinct cached pages asked for, 8 at a time (server resident memory; checkpoints after each ${fmt(BLOCK)}, the last ${fmt(FULL_PAGES)} of each full pages)`,
      );
      console.log(`   before: ${mb(rssBefore)}; ${await heap()}`);
      let next = 0;
      let failed = 0;
      const askStarted = performance.now();
      const ask = async (until: number) => {
        const worker = async () => {
          for (let i = next++; i < until; i = next++) {
            const answer = await client.get(seededPath(seeded, i));
            if (answer.status !== 200) failed += 1;
          }
        };
        await Promise.all(Array.from({ length: 8 }, worker));
        next = until;
      };
      const checkpoints: { pages: number; rss: number }[] = [];
      // Halfway through each block too (its pages small so far: the cache holds small pages there).
      for (let until = BLOCK / 2; until <= SEEDED_PAGES; until += BLOCK / 2) {
        await ask(until);
        const rss = dash.rss();
        if (until % BLOCK === 0) checkpoints.push({ pages: until, rss });
        console.log(
          `   after ${fmt(until)}: ${mb(rss)} (${rss >= rssBefore ? '+' : ''}${mb(rss - rssBefore)} over before); ${await heap()}; ${fmt(until / ((performance.now() - askStarted) / 1000))} pages/s so far   (load ${load()})`,
        );
      }
      const callsDuring = ((await simStats(sim.url)).accounts.demo?.requests ?? 0) - callsBefore;
      console.log(`   ${failed} not 200, ${callsDuring} upstream calls`);
      if (failed > 0 || callsDuring > 0) throw new Error('a seeded page was not answered from the cache');
      const first = checkpoints[0]!;
      const last = checkpoints.at(-1)!;
      const growth = last.rss / first.rss;
      results.push(
        `resident memory ${mb(rssBefore)} before, ${checkpoints.map((c) => `${mb(c.rss)} after ${fmt(c.pages)}`).join(', ')} distinct cached pages: ${((growth - 1) * 100).toFixed(1)}% from ${fmt(first.pages)} to ${fmt(last.pages)} (target ≤ 10%)`,
      );
    }
    client.close();

    if (PARTS.has('4')) {
      // 4. Export: the server's time per upstream page against the upstream's own.
      const supportCookie = await signIn(dash.url, 'support', 'support-secret');
      const exportFrom = dayStart(now - 40 * DAY);
      const exportTo = exportFrom + EXPORT_DAYS * DAY - 1000;
      const body = { 'date-from': wall(exportFrom), 'date-to': wall(exportTo), tz: 'UTC', 'sort-order': 'asc' };
      const exportCpuBefore = dash.cpuMs();
      const { job, pagesReadAt, slowestPollMs } = await runExport(dash.url, supportCookie, body);
      const exportCpu = dash.cpuMs() - exportCpuBefore;
      const pages = job.progress.callsSpent + job.progress.pagesCached;
      const createdAt = Date.parse(job.createdAt);
      const exportMs = Date.parse(job.finishedAt as string) - createdAt;
      // The upstream's own time, with the dashboard quiet: a finished export leaves work behind (its
      // records deleted, its complete result copied into the local history), which would share the
      // two cores with the simulator and make the upstream look slower than it is.
      const quietAfterMs = await untilQuiet(() => dash.cpuMs());
      const supportToken = await getToken(sim, 'support', 'support-secret');
      const upstreamStarted = performance.now();
      for (let page = 1; page <= pages; page++) {
        const res = await apiGet(
          sim,
          queryPath({
            'date-from': wall(exportFrom),
            'date-to': wall(exportTo),
            'page-size': PAGE_SIZE,
            page,
            tz: 'UTC',
            'sort-order': 'asc',
          }),
          supportToken,
        );
        if (res.status !== 200) throw new Error(`the simulator answered ${res.status}`);
      }
      const upstreamPerPage = (performance.now() - upstreamStarted) / pages;
      const exportPerPage = exportMs / pages;
      // The pages as seen by the last status poll before the file was written (100 ms steps).
      const readingPerPage = pagesReadAt === null ? null : (pagesReadAt - createdAt) / pages;
      console.log(
        `\n4. Export: ${fmt(job.progress.recordsFetched)} records, ${fmt(pages)} upstream pages of ${PAGE_SIZE} (${job.progress.callsSpent} calls), created to done in ${fmt(exportMs / 1000, 2)} s (load ${load()})`,
      );
      console.log(
        `   the simulator alone, the same pages one after another: ${upstreamPerPage.toFixed(1)} ms a page (asked once the dashboard was quiet, ${fmt(quietAfterMs / 1000, 1)} s after the export)`,
      );
      if (readingPerPage !== null)
        console.log(
          `   the export reading them: ${readingPerPage.toFixed(1)} ms a page, its own cost ${(readingPerPage - upstreamPerPage).toFixed(1)} ms a page; then the file: ${fmt((exportMs - (pagesReadAt! - createdAt)) / 1000, 2)} s`,
        );
      console.log(
        `   the export, file included: ${exportPerPage.toFixed(1)} ms a page, its own cost ${(exportPerPage - upstreamPerPage).toFixed(1)} ms a page`,
      );
      console.log(
        `   the server's CPU meanwhile: ${(exportCpu / pages).toFixed(1)} ms a page (every page's step, the file and the status polls)`,
      );
      console.log(`   the slowest status answer meanwhile (polled every 100 ms): ${slowestPollMs.toFixed(0)} ms`);
      results.push(
        `export ${exportPerPage.toFixed(1)} ms a page, file included, against the upstream's ${upstreamPerPage.toFixed(1)} ms: ${(exportPerPage - upstreamPerPage).toFixed(1)} ms of its own` +
          (readingPerPage === null ? '' : ` (${(readingPerPage - upstreamPerPage).toFixed(1)} ms before the file)`) +
          ' (target ≤ 5)',
      );
    }
  } finally {
    await dash.stop();
    await sim.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  console.log('\nSummary');
  for (const line of results) console.log(`   ${line}`);
}

interface ExportJobAnswer {
  id: string;
  state: string;
  message: string | null;
  createdAt: string;
  finishedAt: string | null;
  progress: { recordsFetched: number; callsSpent: number; pagesCached: number; windows: { state: string }[] };
}

/** The finished job, and when its last page was seen read (before its file was written), to 100 ms. */
async function runExport(
  base: string,
  cookie: string,
  body: Record<string, string>,
): Promise<{ job: ExportJobAnswer; pagesReadAt: number | null; slowestPollMs: number }> {
  const headers = { Cookie: cookie, Accept: 'application/json', 'Content-Type': 'application/json' };
  const created = await fetch(`${base}/api/exports`, { method: 'POST', headers, body: JSON.stringify(body) });
  if (created.status !== 201) throw new Error(`POST /api/exports: ${created.status} ${await created.text()}`);
  const { id } = (await created.json()) as ExportJobAnswer;
  const until = Date.now() + 10 * 60_000;
  let pagesReadAt: number | null = null;
  // How long the server kept a person waiting meanwhile: the slowest status answer (the file and
  // the local history's copy of the result are written in steps, never in one long turn).
  let slowestPollMs = 0;
  for (;;) {
    await new Promise((r) => setTimeout(r, 100));
    const asked = performance.now();
    const job = (await (await fetch(`${base}/api/exports/${id}`, { headers })).json()) as ExportJobAnswer;
    slowestPollMs = Math.max(slowestPollMs, performance.now() - asked);
    if (pagesReadAt === null && job.state !== 'done' && job.progress.windows.every((w) => w.state === 'done'))
      pagesReadAt = Date.now();
    if (job.state === 'done') return { job, pagesReadAt, slowestPollMs };
    if (job.state === 'failed' || job.state === 'cancelled') throw new Error(`export ${job.state}: ${job.message}`);
    if (Date.now() > until) throw new Error('the export did not finish in 10 minutes');
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});
