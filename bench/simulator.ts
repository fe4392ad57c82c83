/**
 * `npm run bench:sim`: how fast the simulator answers when it holds about a million records in 31
 * days — the size of a busy enterprise's month. Starts it in-process with limits off, times 31-day
 * queries over real HTTP (loopback, keep-alive) and prints p50/p95/max per kind of query, plus the
 * time to generate the data and the process's memory.
 */
import os from 'node:os';
import { startSimulator } from '../simulator/server';
import { API_HEADERS, getToken, queryPath } from '../simulator/test-client';

const DAYS = 31;
const PER_DAY = Number(process.env.BENCH_PER_DAY ?? 33_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);

function wallClock(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function main(): Promise<void> {
  const now = Date.now();
  const t0 = performance.now();
  const sim = await startSimulator({
    port: 0,
    days: DAYS,
    perDay: PER_DAY,
    limits: false,
    quiet: true,
    now: () => now,
  });
  const startMs = performance.now() - t0;
  const visible = sim.dataset.visibleCount();
  const rss = process.memoryUsage().rss / 1024 / 1024;
  console.log(
    `records: ${visible.toLocaleString('en-US')} visible (${sim.dataset.size.toLocaleString('en-US')} generated, incl. the next 2 days)`,
  );
  console.log(
    `generation: ${Math.round(sim.dataset.generationMs)} ms; startSimulator: ${Math.round(startMs)} ms; RSS: ${Math.round(rss)} MB`,
  );

  const [support, demo] = [await getToken(sim, 'support'), await getToken(sim, 'demo')];
  const range = { 'date-from': wallClock(now - DAYS * 86_400_000), 'date-to': wallClock(now) };
  const someTrx = sim.dataset.trxIdAt(sim.dataset.visibleCount() - 1000);

  const kinds: [string, string, string][] = [
    ['no filter, asc (all enterprises)', support, queryPath({ ...range, 'page-size': 100 })],
    ['no filter, desc', support, queryPath({ ...range, 'page-size': 100, 'sort-order': 'desc' })],
    ['one filter (network)', support, queryPath({ ...range, 'page-size': 100, network: '44010' })],
    ['enterprise scope (demo key)', demo, queryPath({ ...range, 'page-size': 100 })],
    [
      'three filters (ent+network+status)',
      demo,
      queryPath({ ...range, 'page-size': 100, network: '44020', status: 'DELIVRD', 'api-key': 'sakura-shop' }),
    ],
    [
      'rare filter (status UNDELIV), desc',
      support,
      queryPath({ ...range, 'page-size': 100, status: 'UNDELIV', 'sort-order': 'desc' }),
    ],
    ['deep page 1000, asc', support, queryPath({ ...range, 'page-size': 100, page: 1000 })],
    [
      'deep page 1000, desc, filtered',
      demo,
      queryPath({ ...range, 'page-size': 100, page: 1000, 'sort-order': 'desc', network: '44010' }),
    ],
    ['detail (one trx_id)', support, `/cdr/v1/report/cdr/sms/transaction-history/mt/${someTrx}`],
  ];

  // Wall time suffers when the machine is busy; CPU time (server and client share this process) does not.
  console.log(
    `\n${'kind'.padEnd(38)}${'p50 ms'.padStart(8)}${'p95 ms'.padStart(8)}${'max ms'.padStart(8)}${'cpu p50'.padStart(9)}${'found'.padStart(11)}${'KB'.padStart(6)}`,
  );
  for (const [name, token, path] of kinds) {
    const times: number[] = [];
    const cpu: number[] = [];
    let found = '';
    let kb = 0;
    for (let k = 0; k < RUNS + 3; k++) {
      const s = performance.now();
      const c0 = process.cpuUsage();
      const res = await fetch(sim.url + path, { headers: { ...API_HEADERS, Authorization: `Bearer ${token}` } });
      const text = await res.text();
      const ms = performance.now() - s;
      const c = process.cpuUsage(c0);
      if (res.status !== 200) throw new Error(`${name}: ${res.status} ${text.slice(0, 200)}`);
      if (k >= 3) {
        // the first calls warm the JIT up
        times.push(ms);
        cpu.push((c.user + c.system) / 1000);
      }
      const body = JSON.parse(text) as { _embedded?: { total_found: number } };
      found = body._embedded ? body._embedded.total_found.toLocaleString('en-US') : '1';
      kb = Math.round(text.length / 1024);
    }
    times.sort((a, b) => a - b);
    cpu.sort((a, b) => a - b);
    const f = (n: number, w = 8) => n.toFixed(1).padStart(w);
    console.log(
      `${name.padEnd(38)}${f(percentile(times, 50))}${f(percentile(times, 95))}${f(times[times.length - 1]!)}${f(percentile(cpu, 50), 9)}${found.padStart(11)}${String(kb).padStart(6)}`,
    );
  }
  const [l1] = os.loadavg();
  console.log(
    `\nRSS after the runs: ${Math.round(process.memoryUsage().rss / 1024 / 1024)} MB; load average ${l1!.toFixed(1)} on ${os.cpus().length} CPUs`,
  );
  await sim.close();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
