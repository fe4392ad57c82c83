/**
 * bench:load's second line: 20 clients reading cached pages while one person runs free text
 * (`q=000`, in nearly every phone number and id) over 31 days of 1,000,000 local records — does one
 * person's wide search stall everybody else? The figure is p99 of the others' cached pages, first
 * without the search (the baseline), then with it (target < 50 ms).
 *
 * The records are put into the local history of `support` (every enterprise) straight from a
 * simulator's dataset, each day marked complete (tests/support/history-fixture.ts), before the
 * dashboard starts on that data folder; the others read pages of their own accounts, cached once
 * from the simulator process. Runs under `tsx --conditions=react-server` (the store is server-only).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { addDays, lastSettledDay } from '../../lib/history/days';
import { scopeOf } from '../../lib/history/scope';
import { openStore } from '../../lib/root/open-store';
import { formatWallClock } from '../../lib/time/zones';
import { Dataset } from '../../simulator/dataset';
import { generate } from '../../simulator/generate';
import { loadHistoryFixture } from '../../tests/support/history-fixture';
import { signIn, startDashboard, startSimulatorProcess } from './processes';
import { ACCOUNTS, percentile } from './workload';

const RECORDS = Number(process.env.BENCH_LOAD_RECORDS ?? 1_000_000);
const OTHERS = 20;
const DAYS = 31;
const PHASE_SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const HOUR = 3600_000;
const DAY = 24 * HOUR;
/** A range settles after 72 h: the cached pages are of settled ranges, and the history's last day too. */
const SETTLED_AFTER_MS = 72 * HOUR;

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** Ten cached pages an account's person reads over and over: a settled week, paged, in both zones. */
function cachedPages(now: number): string[] {
  const from = now - 10 * DAY;
  const urls: string[] = [];
  for (const tz of ['UTC', 'JST'] as const)
    for (const page of ['1', '2', '3', '4', '5'])
      urls.push(
        `/api/transactions?${new URLSearchParams({
          'date-from': formatWallClock(new Date(from), tz),
          'date-to': formatWallClock(new Date(from + 7 * DAY), tz),
          tz,
          'page-size': '25',
          page,
        })}`,
      );
  return urls;
}

async function get(base: string, url: string, cookie: string): Promise<{ status: number; source?: string }> {
  const res = await fetch(`${base}${url}`, { headers: { Cookie: cookie, Accept: 'application/json' } });
  const body = (await res.json()) as { _meta?: { source: string } };
  return { status: res.status, source: body._meta?.source };
}

export async function freeTextBesideCachedPages(): Promise<{ ok: boolean; line: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sms-dash-load-q-'));
  const now = Date.now();
  const lastDay = lastSettledDay(now - SETTLED_AFTER_MS);
  const firstDay = addDays(lastDay, -(DAYS - 1));

  const loadStarted = performance.now();
  const dataset = new Dataset(
    generate({ seed: 5, days: DAYS + 4, perDay: Math.ceil(RECORDS / DAYS), now }),
    () => now,
    true,
  );
  const store = await openStore({ dataDir, DATABASE_URL: undefined });
  let records: number;
  try {
    records = await loadHistoryFixture(store.history, dataset, {
      scope: scopeOf({ apiKey: 'support', enterpriseId: null }).key,
      enterpriseId: null,
      fromDay: firstDay,
      toDay: lastDay,
    });
    // The text index caught up and every day's pack built, as after a copy left alone.
    await store.history.settled();
  } finally {
    await store.close();
  }
  console.log(
    `\nfree text beside cached pages: ${fmt(records)} local records of support over ${DAYS} days, loaded in ${fmt((performance.now() - loadStarted) / 1000)} s`,
  );

  const sim = await startSimulatorProcess(['--no-limits']);
  const roomy = {
    UPSTREAM_LIMIT_PER_MINUTE: '100000',
    UPSTREAM_LIMIT_PER_HOUR: '1000000',
    UPSTREAM_LIMIT_PER_DAY: '10000000',
    UPSTREAM_TOKEN_LIMIT_PER_MINUTE: '1000',
  };
  const dash = await startDashboard({ upstreamUrl: sim.url, dataDir, env: roomy });
  try {
    const readers = ACCOUNTS.filter(([k]) => k !== 'support');
    const cookies = await Promise.all(readers.map(([k, s]) => signIn(dash.url, k, s)));
    const searcher = await signIn(dash.url, 'support', 'support-secret');
    const pages = cachedPages(now);
    // Each account's pages read once from the upstream: from then on, cached.
    for (const cookie of cookies) for (const url of pages) await get(dash.url, url, cookie);

    const others = async (seconds: number): Promise<number[]> => {
      const latencies: number[] = [];
      const deadline = performance.now() + seconds * 1000;
      await Promise.all(
        Array.from({ length: OTHERS }, async (_, i) => {
          const cookie = cookies[i % cookies.length]!;
          for (let n = i; performance.now() < deadline; n++) {
            const started = performance.now();
            const answer = await get(dash.url, pages[n % pages.length]!, cookie);
            latencies.push(performance.now() - started);
            if (answer.status !== 200 || answer.source !== 'cache')
              throw new Error(`a cached page answered ${answer.status} from ${answer.source}`);
          }
        }),
      );
      return latencies.sort((a, b) => a - b);
    };
    const q = `/api/transactions?${new URLSearchParams({
      'date-from': `${firstDay} 00:00:00`,
      'date-to': `${lastDay} 23:59:59`,
      q: '000',
      'page-size': '25',
    })}`;

    const baseline = await others(PHASE_SECONDS);
    const searches: number[] = [];
    let found = 0;
    let searching = true;
    const person = (async () => {
      while (searching) {
        const started = performance.now();
        const res = await fetch(`${dash.url}${q}`, { headers: { Cookie: searcher, Accept: 'application/json' } });
        const body = (await res.json()) as { _embedded?: { total_found: number }; _meta?: { source: string } };
        if (res.status !== 200 || body._meta?.source !== 'history')
          throw new Error(`q=000 answered ${res.status} from ${body._meta?.source}`);
        found = body._embedded!.total_found;
        searches.push(performance.now() - started);
      }
    })();
    const during = await others(PHASE_SECONDS);
    searching = false;
    await person;
    searches.sort((a, b) => a - b);

    const line = (name: string, xs: number[]) =>
      `${name}: ${fmt(xs.length)} answers, p50 ${fmt(percentile(xs, 50), 1)} ms, p99 ${fmt(percentile(xs, 99), 1)} ms, max ${fmt(xs.at(-1) ?? 0, 1)} ms`;
    console.log(`  ${OTHERS} clients' cached pages alone          ${line('', baseline).slice(2)}`);
    console.log(`  the same while q=000 runs over ${DAYS} days    ${line('', during).slice(2)}`);
    console.log(`  q=000 itself (${fmt(found)} found)            ${line('', searches).slice(2)}`);
    const p99 = percentile(during, 99);
    const ok = p99 < 50;
    return {
      ok,
      line: `p99 of ${OTHERS} clients' cached pages while q=000 runs over ${DAYS} days of ${fmt(records)} local records: ${fmt(p99, 1)} ms (alone ${fmt(percentile(baseline, 99), 1)} ms; target < 50 ms: ${ok ? 'met' : 'NOT met'})`,
    };
  } finally {
    await dash.stop();
    await sim.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
