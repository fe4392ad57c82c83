/**
 * bench/mirror: what the local history costs and what it saves.
 *  1. Sync cost per page beyond the upstream's time: the real sync (the services of
 *     lib/root/services.ts, limits off) copies 14 settled days from a simulator running in a process
 *     of its own, as the upstream is (in this one, its work and its garbage would be counted as
 *     the sync's); every upstream HTTP exchange is timed (headers and body), and what the sync
 *     spends besides until the last day is complete — parsing, checking, staging, building the
 *     days on the history writer's thread, the governor, the lease — is divided by the pages it
 *     read. Beside it: the same pages asked again with nothing else running (the upstream's own
 *     time, which the exchanges timed during the copy exceed by the simulator's waits for a core),
 *     and the CPU the server's thread, this process's other threads and the simulator used.
 *  2. A scripted support day: 30 distinct questions over the last 14 settled days (numbers,
 *     statuses, senders, references, sub-ranges, later pages, zone switches) asked without the
 *     local history and again once its 14 days are complete: upstream calls each way, beside the
 *     sync's own calls.
 *  3. At 1,000,000 records over 31 days (BENCH_MIRROR_RECORDS to change it; loaded straight from the
 *     simulator's dataset, each day marked complete, through the store's own write path): disk
 *     bytes per record, and p95 of searches answered by the planner (lib/search/planner.ts)
 *     — two filters, free text, another column's order, pages 1 and 1000 — with no call.
 *
 *   npm run bench:mirror
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { authSecret } from '../lib/auth/auth-secret';
import { seal } from '../lib/auth/secret-box';
import type { Cdr } from '../lib/cdr/schema';
import { addDays, lastSettledDay, startOf } from '../lib/history/days';
import { DAY_MS } from '../lib/time/units';
import { scopeOf } from '../lib/history/scope';
import { parseQuery, type TransactionsQuery } from '../lib/query/query';
import { formatWallClock, type Zone } from '../lib/time/zones';
import { startHarness, type Harness } from '../tests/support/service-harness';
import { historyFileOf } from '../lib/db/history-file';
import { sqliteFileOf } from '../lib/db/sqlite-file';
import { mainThreadCpuMs, startSimulatorProcess, untilQuiet } from './lib/processes';
import { QUERY_PATH } from '../lib/upstream/report-api-client';
import { nodeTransport } from '../lib/upstream/node-transport';
import { loadHistoryFixture } from '../tests/support/history-fixture';

const ROOMY = {
  UPSTREAM_LIMIT_PER_MINUTE: '100000',
  UPSTREAM_LIMIT_PER_HOUR: '1000000',
  UPSTREAM_LIMIT_PER_DAY: '10000000',
  LOG_LEVEL: 'error',
};
const RECORDS = Number(process.env.BENCH_MIRROR_RECORDS ?? 1_000_000);
const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** An upstream GET as it was sent, to be sent again. */
interface SentRequest {
  url: string;
  headers: Record<string, string>;
}

/**
 * Times every upstream HTTP exchange (from the request to the body's last byte) made while `run`
 * runs, keeps the GETs to send them again (`replayAlone`), and notes when the last one ended (what
 * the copy does after it is the history writer finishing the days it was given). The client sends through
 * `http.request` (lib/upstream/node-transport.ts), so that is where the exchanges are watched.
 */
async function timingUpstream<T>(
  upstreamUrl: string,
  run: () => Promise<T>,
): Promise<{ result: T; upstreamMs: number; exchanges: number; gets: SentRequest[]; lastEndAt: number }> {
  const original = http.request;
  let upstreamMs = 0;
  let lastEndAt = 0;
  let exchanges = 0;
  const gets: SentRequest[] = [];
  const watched = (
    url: URL,
    options: http.RequestOptions,
    callback: (res: http.IncomingMessage) => void,
  ): http.ClientRequest => {
    if ((options.method ?? 'GET') === 'GET')
      gets.push({ url: url.href, headers: { ...(options.headers as Record<string, string>) } });
    const started = performance.now();
    return original(url, options, (res) => {
      res.once('end', () => {
        lastEndAt = Date.now();
        upstreamMs += performance.now() - started;
        exchanges += 1;
      });
      callback(res);
    });
  };
  (http as { request: unknown }).request = (...args: unknown[]) =>
    args[0] instanceof URL && args[0].href.startsWith(upstreamUrl)
      ? watched(args[0], args[1] as http.RequestOptions, args[2] as (res: http.IncomingMessage) => void)
      : (original as (...a: unknown[]) => http.ClientRequest)(...args);
  try {
    const result = await run();
    return { result, upstreamMs, exchanges, gets, lastEndAt };
  } finally {
    http.request = original;
  }
}

/**
 * The same requests sent again one after another through the client's own transport, nothing
 * else running: the upstream's own time. Timed during the copy, an exchange also holds the
 * simulator's wait for a core (the copy's two threads and the simulator share this machine's two)
 * and any turn of the server's thread that was busy when the answer came.
 */
async function replayAlone(gets: readonly SentRequest[]): Promise<number> {
  let ms = 0;
  for (const get of gets) {
    const started = performance.now();
    const res = await nodeTransport(get.url, {
      method: 'GET',
      headers: get.headers,
      signal: AbortSignal.timeout(20_000),
      redirect: 'manual',
    });
    await res.text();
    if (res.status !== 200) throw new Error(`the simulator answered ${res.status} to a request the copy made`);
    ms += performance.now() - started;
  }
  return ms;
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, everyMs = 20): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

function query(params: Record<string, string>): TransactionsQuery {
  const r = parseQuery(params);
  if (!r.ok) throw new Error(`bad query ${JSON.stringify(params)}: ${JSON.stringify(r.errors)}`);
  return r.query;
}

const wall = (ms: number, tz: Zone = 'UTC') => formatWallClock(new Date(ms), tz);

async function signedIn(h: Harness, apiKey: string, secret: string) {
  const now = Date.now();
  await h.store.vault.put({
    sid: `sid-${apiKey}`,
    apiKey,
    enterpriseId: null,
    sealedSecret: seal(secret, authSecret()),
    createdAt: now,
    expiresAt: now + 6 * 3600_000,
  });
  return { apiKey, enterpriseId: null, sid: `sid-${apiKey}` };
}

/**
 * The support day's 30 questions over [first, last] (UTC days): a person's searches as they come,
 * built from records the simulator holds (so lookups find something).
 */
function supportDay(h: Harness, first: string, last: string): TransactionsQuery[] {
  const from = startOf(first);
  const to = startOf(last) + DAY_MS;
  const all = h.sim.dataset.query({ from, to, enterpriseId: 'ent-sakura', order: 'asc', offset: 0, limit: 10_000_000 });
  const pick = (i: number) =>
    h.sim.dataset.recordAt(
      all.indices[Math.floor((((i * 7919) % 997) / 997) * all.indices.length)]!,
      'UTC',
    ) as unknown as Cdr;
  const range = (dayOffset: number, days: number, tz: Zone = 'UTC') => ({
    'date-from': wall(from + dayOffset * DAY_MS, tz),
    'date-to': wall(from + (dayOffset + days) * DAY_MS - 1000, tz),
    tz,
  });
  const questions: Record<string, string>[] = [];
  for (let i = 0; i < 6; i++) questions.push({ ...range(14 - 7, 7), da: pick(i).to_address }); // a customer's number, last week
  for (let i = 0; i < 4; i++) questions.push({ ...range(10 + i, 1), status: 'UNDELIV' }); // failures of a day
  for (let i = 0; i < 4; i++) questions.push({ ...range(i * 3, 3), oa: pick(20 + i).from_address }); // a sender over 3 days
  for (let i = 0; i < 4; i++) questions.push({ ...range(i, 1), 'client-reference': pick(40 + i).ref }); // an order reference
  for (let i = 0; i < 4; i++) {
    const start = from + (5 + i) * DAY_MS + 9 * 3600_000; // a morning: 09:00–15:00
    questions.push({ 'date-from': wall(start), 'date-to': wall(start + 6 * 3600_000), tz: 'UTC' });
  }
  for (let i = 0; i < 4; i++) questions.push({ ...range(2, 5), status: 'DELIVRD', page: String(2 + i) }); // later pages
  for (let i = 0; i < 4; i++) questions.push({ ...range(6 + i, 2, 'JST'), network: pick(60 + i).network_code }); // in JST
  return questions.slice(0, 30).map(query);
}

/** Query requests a simulator process has answered for an API key (its admin stats). */
async function queriesOf(simUrl: string, apiKey: string): Promise<number> {
  const stats = (await (await fetch(`${simUrl}/__admin/stats`)).json()) as {
    accounts: Record<string, { queryRequests: number } | undefined>;
  };
  return stats.accounts[apiKey]?.queryRequests ?? 0;
}

async function syncAndSupportDay(): Promise<void> {
  const base = { perDay: 3_000, days: 20, seed: 21, limits: false as const, quiet: true };
  // The same world as `base`, in a process of its own: the upstream of the copy.
  const upstream = await startSimulatorProcess([
    '--per-day',
    String(base.perDay),
    '--days',
    String(base.days),
    '--seed',
    String(base.seed),
    '--no-limits',
  ]);
  const now = Date.now();

  // Without the local history: the 30 questions, each through the planner, as the API asks them.
  const plain = await startHarness({ sim: base, env: ROOMY });
  const lastSettled = lastSettledDay(plain.policy.settledBefore(now));
  const first = addDays(lastSettled, -13);
  const questions = supportDay(plain, first, lastSettled);
  const account = plain.account('demo');
  const before = plain.sim.stats().accounts.demo?.queryRequests ?? 0;
  for (const q of questions) await plain.transactions.page(account, q);
  const withoutCalls = (plain.sim.stats().accounts.demo?.queryRequests ?? 0) - before;
  await plain.close();

  // With it: the copy of the 14 days (timed against its upstream exchanges), then the same questions.
  const h = await startHarness({
    sim: { ...base, perDay: 1, days: 1 },
    env: { ...ROOMY, UPSTREAM_BASE_URL: upstream.url },
  });
  const who = await signedIn(h, 'demo', 'demo-secret');
  // The history writer's thread is started with the server (the sync runner's start), not timed here.
  await h.store.history.warmUp();
  h.syncRunner.start();
  const started = Date.now();
  // CPU used so far, sampled every 50 ms: read at the last day's completion, not at the poll that saw it.
  const cpuNow = () => ({
    at: Date.now(),
    self: process.cpuUsage(),
    thread: mainThreadCpuMs(),
    upstream: upstream.cpuMs(),
  });
  const cpuSamples = [cpuNow()];
  const sampler = setInterval(() => cpuSamples.push(cpuNow()), 50);
  const scope = scopeOf(who).key;
  const { upstreamMs, exchanges, gets, lastEndAt } = await timingUpstream(upstream.url, async () => {
    // Turning the copy on starts it (the services' runner is running).
    await h.history.put(who, { enabled: true, since: first });
    // Looked at once a second, not to weigh on what is measured; the end is the last day's completion.
    await waitFor(
      async () => (await h.store.history.completeDays(scope, first, lastSettled)).length === 14,
      600_000,
      1_000,
    );
    await h.syncRunner.stop();
  });
  clearInterval(sampler);
  const syncMs = Math.max(...(await h.store.history.listDays(scope)).map((d) => d.completedAt ?? 0)) - started;
  const cpuStart = cpuSamples[0]!;
  const cpuEnd = cpuSamples.find((c) => c.at >= started + syncMs) ?? cpuSamples.at(-1)!;
  const cpuMs = {
    self: (cpuEnd.self.user - cpuStart.self.user + cpuEnd.self.system - cpuStart.self.system) / 1000,
    thread: cpuEnd.thread - cpuStart.thread,
    upstream: cpuEnd.upstream - cpuStart.upstream,
  };
  const cpuWindowMs = cpuEnd.at - cpuStart.at;
  const state = await h.history.get(who);
  const syncCalls = await queriesOf(upstream.url, 'demo');
  const historyAccount = h.account('demo', null);
  for (const q of questions) await h.transactions.page(historyAccount, q);
  const withCalls = (await queriesOf(upstream.url, 'demo')) - syncCalls;
  // Last: the simulator counts these too.
  const queries = gets.filter((get) => new URL(get.url).pathname === QUERY_PATH);
  // With this process quiet (the history writer's last work done), as the simulator's own time.
  await untilQuiet(() => {
    const used = process.cpuUsage();
    return (used.user + used.system) / 1000;
  });
  const aloneMs = await replayAlone(queries);
  await h.close();
  await upstream.stop();

  const overhead = (syncMs - upstreamMs) / syncCalls;
  console.log('Sync of 14 settled days (the simulator in a process of its own, over HTTP, limits off)');
  console.log(`  records copied                 ${fmt(state.records)}`);
  console.log(
    `  pages (upstream calls)         ${fmt(syncCalls)}   (token requests and other exchanges: ${fmt(exchanges - syncCalls)})`,
  );
  console.log(`  wall time                      ${fmt(syncMs)} ms, of which upstream exchanges ${fmt(upstreamMs)} ms`);
  console.log(`  cost per page beyond upstream  ${fmt(overhead, 2)} ms   (target <= 5 ms)`);
  console.log(
    `  the last page read ${fmt(lastEndAt - started)} ms in; the last day complete ${fmt(started + syncMs - lastEndAt)} ms after it (the history writer finishing its queue)`,
  );
  console.log(
    `  the same ${fmt(queries.length)} pages asked again alone: ${fmt(aloneMs)} ms (${fmt(aloneMs / queries.length, 1)} ms each); beyond that time: ${fmt((syncMs - aloneMs) / syncCalls, 2)} ms a page`,
  );
  const perPage = (ms: number) => `${fmt(ms / syncCalls, 1)} ms a page`;
  console.log(
    `  CPU meanwhile: the server's thread ${perPage(cpuMs.thread)}, its other threads (the history writer, GC helpers) ${perPage(cpuMs.self - cpuMs.thread)}, the simulator ${perPage(cpuMs.upstream)}; the ${os.cpus().length} cores ${fmt((100 * (cpuMs.self + cpuMs.upstream)) / (cpuWindowMs * os.cpus().length))}% busy`,
  );
  console.log(
    `  at the seed's limits (10/h, 100/day, sync share 0.6) these ${fmt(syncCalls)} calls take about ${fmt(syncCalls / 60, 1)} days of idle quota`,
  );
  console.log('');
  console.log('Scripted support day: 30 distinct questions over the last 14 settled days');
  console.log(`  upstream calls without the local history   N = ${withoutCalls}`);
  console.log(`  upstream calls with it (14 days complete)  M = ${withCalls}   (target M = 0)`);
  console.log(`  the sync's own calls                       ${syncCalls}   (made with quota nobody was using)`);
  console.log('');
}

interface Case {
  name: string;
  params: (i: number) => Record<string, string>;
}

function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]!;
}

async function searchesAtScale(): Promise<void> {
  const days = 31;
  const perDay = Math.ceil(RECORDS / days);
  const h = await startHarness({ sim: { perDay, days: days + 4, seed: 3, limits: false, quiet: true }, env: ROOMY });
  const account = h.account('support');
  const scope = scopeOf(account).key;
  const lastDay = lastSettledDay(h.policy.settledBefore(Date.now()));
  const firstDay = addDays(lastDay, -(days - 1));
  const loadStarted = performance.now();
  const records = await loadHistoryFixture(h.store.history, h.sim.dataset, {
    scope,
    enterpriseId: null,
    fromDay: firstDay,
    toDay: lastDay,
  });
  // Searched once the writer is done: the text index caught up, every day's pack built.
  await h.store.history.settled();
  const loadMs = performance.now() - loadStarted;
  // The store's file and the local history's own (lib/db/history-file.ts), with their logs.
  const files = [sqliteFileOf(h.config.dataDir), historyFileOf(h.config.dataDir)]
    .flatMap((f) => [f, `${f}-wal`])
    .filter((f) => fs.existsSync(f));
  const bytes = files.reduce((sum, f) => sum + fs.statSync(f).size, 0);

  const range = { 'date-from': `${firstDay} 00:00:00`, 'date-to': `${addDays(lastDay, 1)} 00:00:00` };
  const sample = h.sim.dataset.query({
    from: startOf(firstDay),
    to: startOf(lastDay) + DAY_MS,
    enterpriseId: null,
    order: 'asc',
    offset: 0,
    limit: 10_000_000,
  });
  const rec = (i: number) =>
    h.sim.dataset.recordAt(sample.indices[(i * 104_729) % sample.indices.length]!, 'UTC') as unknown as Record<
      string,
      string
    >;
  /** The first sampled record from the i-th on that has a client reference (not every message has one). */
  const withRef = (i: number) => {
    for (let j = i; ; j++) if (rec(j).ref) return rec(j);
  };
  const statuses = ['DELIVRD', 'UNDELIV', 'EXPIRED', 'REJECTD'];
  const cases: Case[] = [
    {
      name: 'two filters, page 1',
      params: (i) => ({ ...range, status: statuses[i % 4]!, network: rec(i).network_code! }),
    },
    {
      name: 'two filters, page 1000',
      params: (i) => ({ ...range, status: 'DELIVRD', network: rec(i).network_code!, page: '1000' }),
    },
    { name: 'q: part of a reference, p. 1', params: (i) => ({ ...range, q: withRef(i).ref!.slice(-7) }) },
    // Part of every reference's "-2026-": the trigrams of nearly every record, tens of thousands found.
    { name: 'q: -2026-1 (in most references)', params: () => ({ ...range, q: '-2026-1' }) },
    { name: 'q: a word (配達), page 1', params: () => ({ ...range, q: '配達' }) },
    { name: 'q: a word (配達), page 1000', params: () => ({ ...range, q: '配達', page: '1000' }) },
    { name: 'q: part of a number, page 1', params: (i) => ({ ...range, q: rec(i).to_address!.slice(-7) }) },
    {
      name: 'sorted by price, page 1',
      params: (i) => ({ ...range, sort: 'price', 'sort-order': i % 2 ? 'asc' : 'desc' }),
    },
    {
      name: 'sorted by price, page 1000',
      params: (i) => ({ ...range, sort: 'price', 'sort-order': i % 2 ? 'asc' : 'desc', page: '1000' }),
    },
    { name: 'last 4 digits (da-suffix)', params: (i) => ({ ...range, 'da-suffix': rec(i).to_address!.slice(-4) }) },
    { name: 'no filter, page 1000', params: () => ({ ...range, page: '1000' }) },
  ];
  const calls = () => h.sim.stats().total.queryRequests;
  const callsBefore = calls();
  console.log(
    `Searches over ${fmt(records)} local records, ${days} days (loaded in ${fmt(loadMs / 1000)} s); each case 20 times, planner and store, no HTTP`,
  );
  console.log(`  disk bytes per record (records, text index, rollups, indexes)  ${fmt(bytes / records)}`);
  console.log(`  ${'case'.padEnd(32)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)}   total_found (first)`);
  for (const c of cases) {
    const times: number[] = [];
    let total = 0;
    for (let i = 0; i < 20; i++) {
      const q = query({ 'page-size': '25', ...c.params(i) });
      const t = performance.now();
      const page = await h.transactions.page(account, q);
      times.push(performance.now() - t);
      if (i === 0) total = page._embedded.total_found;
      if (page._meta.source !== 'history') throw new Error(`${c.name}: answered by ${page._meta.source}`);
    }
    const p50 = [...times].sort((a, b) => a - b)[10]!;
    console.log(`  ${c.name.padEnd(32)} ${fmt(p50, 1).padStart(8)} ${fmt(p95(times), 1).padStart(8)}   ${fmt(total)}`);
  }
  console.log(`  upstream calls for all of them: ${calls() - callsBefore}   (target < 100 ms p95 each)`);
  await h.close();
}

async function main() {
  process.env.LOG_LEVEL = 'error';
  console.log(
    `bench:mirror on ${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log('');
  await syncAndSupportDay();
  // BENCH_MIRROR_RECORDS=0: the sync and the support day only.
  if (RECORDS > 0) await searchesAtScale();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
