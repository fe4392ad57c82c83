/**
 * bench/quota: what a support person's session costs in upstream calls.
 *
 * Drives the dashboard's HTTP API (production build, real next-auth sign-in) against the simulator
 * with the real upstream's limits: a search, paging forward and back through 8 pages of 25,
 * toggling the zone twice, flipping the sort, opening 3 rows, looking up a seen trx_id and an
 * unseen one. Prints the upstream calls each step cost (counted by the simulator) beside what a
 * proxy that forwards every request would have spent. A 429 from the dashboard is honoured as the
 * UI does (wait Retry-After, retry), so the session completes within the limits.
 *
 *   npm run bench:quota
 */
import { formatWallClock } from '../lib/time/zones';
import { startSimulator } from '../simulator/server';
import { signIn, startDashboard } from './lib/processes';

const HOUR = 3600_000;

async function main() {
  const sim = await startSimulator({ port: 0, quiet: true });
  const dash = await startDashboard({ upstreamUrl: sim.url });
  const cookie = await signIn(dash.url, 'demo', 'demo-secret');
  const calls = () => sim.stats().accounts.demo?.requests ?? 0;

  let forwarded = 0;
  let waitedMs = 0;
  async function get(path: string): Promise<Record<string, unknown>> {
    forwarded += 1;
    for (;;) {
      const res = await fetch(`${dash.url}${path}`, { headers: { Cookie: cookie } });
      if (res.status === 429) {
        const wait = Number(res.headers.get('Retry-After') ?? '5') * 1000;
        waitedMs += wait;
        await new Promise((r) => setTimeout(r, wait));
        continue;
      }
      if (!res.ok) throw new Error(`${path} → ${res.status}: ${await res.text()}`);
      return (await res.json()) as Record<string, unknown>;
    }
  }

  const now = Date.now();
  const from = new Date(now - 11 * 24 * HOUR);
  const to = new Date(now - 4 * 24 * HOUR);
  const q = (params: Record<string, string>) =>
    `/api/transactions?${new URLSearchParams({ 'date-from': formatWallClock(from, 'UTC'), 'date-to': formatWallClock(to, 'UTC'), tz: 'UTC', 'sort-order': 'desc', 'page-size': '25', oa: 'SakuraMart', ...params })}`;
  const jst = (params: Record<string, string>) =>
    q({ 'date-from': formatWallClock(from, 'JST'), 'date-to': formatWallClock(to, 'JST'), tz: 'JST', ...params });

  const rows: { step: string; requests: number; calls: number }[] = [];
  async function step(name: string, paths: string[]): Promise<Record<string, unknown>[]> {
    const before = calls();
    const beforeForwarded = forwarded;
    const out: Record<string, unknown>[] = [];
    for (const p of paths) out.push(await get(p));
    rows.push({ step: name, requests: forwarded - beforeForwarded, calls: calls() - before });
    return out;
  }

  const [first] = await step('search (page 1 of 25, newest first)', [q({ page: '1' })]);
  const total = (first?._embedded as { total_found: number }).total_found;
  await step(
    'page forward to page 8',
    ['2', '3', '4', '5', '6', '7', '8'].map((page) => q({ page })),
  );
  await step(
    'page back to page 1',
    ['7', '6', '5', '4', '3', '2', '1'].map((page) => q({ page })),
  );
  await step('toggle zone to JST and back', [jst({ page: '1' }), q({ page: '1' })]);
  await step('flip the sort (oldest first)', [q({ page: '1', 'sort-order': 'asc' })]);
  const cdrs = (first?._embedded as { cdrs: { trx_id: string }[] }).cdrs;
  await step(
    'open 3 rows',
    cdrs.slice(0, 3).map((c) => `/api/transactions/${c.trx_id}`),
  );
  const pageThree = await get(q({ page: '3' }));
  forwarded -= 1; // re-reading page 3 only to pick a seen id is not part of the session
  const seen = (pageThree._embedded as { cdrs: { trx_id: string }[] }).cdrs[5]?.trx_id as string;
  await step('look up a seen trx_id', [`/api/transactions/${seen}`]);
  const outside = sim.dataset.query({
    from: now - 30 * 24 * HOUR,
    to: now - 29 * 24 * HOUR,
    enterpriseId: 'ent-sakura',
    limit: 1,
  });
  const unseen = sim.dataset.recordAt(outside.indices[0] as number).trx_id;
  await step('look up an unseen trx_id', [`/api/transactions/${unseen}`]);

  const spent = rows.reduce((s, r) => s + r.calls, 0);
  const requests = rows.reduce((s, r) => s + r.requests, 0);
  console.log(`bench/quota — a support session against the simulator (limits 1 in flight, 3/min, 10/h, 100/day)`);
  console.log(`query: 7 settled days, oa=SakuraMart, ${total} records, pages of 25\n`);
  console.log(`${'step'.padEnd(40)} ${'requests'.padStart(8)} ${'calls'.padStart(6)}`);
  for (const r of rows)
    console.log(`${r.step.padEnd(40)} ${String(r.requests).padStart(8)} ${String(r.calls).padStart(6)}`);
  console.log('-'.repeat(56));
  console.log(`${'total'.padEnd(40)} ${String(requests).padStart(8)} ${String(spent).padStart(6)}`);
  console.log(`\nupstream calls spent by the dashboard:        ${spent}`);
  console.log(`upstream calls a forward-every-request proxy: ${requests}`);
  console.log(
    `saved: ${requests - spent} calls (${Math.round((100 * (requests - spent)) / requests)}%); waited for the limits: ${(waitedMs / 1000).toFixed(0)} s`,
  );
  console.log(
    `simulator 429s: ${sim.stats().total.rateLimited}, most calls in flight at once: ${sim.stats().total.maxInFlight}`,
  );

  await dash.stop();
  await sim.close();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
