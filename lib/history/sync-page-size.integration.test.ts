/**
 * The page size the sync finds, over real HTTP against the simulator (its --max-page-size and
 * --page-size-over): asked with 1,000 first, it reads at 1,000 where the upstream serves it, at
 * what it serves where it clamps, and at 100 where it refuses, the refusal costing one call; an
 * upstream that refuses later a size it served before is read on at 100 from the page it stopped
 * at, saying so, no page paid twice. Every day synced equals the simulator's, record for record.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../tests/support/service-harness';
import { authSecret } from '../auth/auth-secret';
import { seal, unseal } from '../auth/secret-box';
import { createLogger } from '../log';
import type { Cdr } from '../cdr/schema';
import { DAY_MS } from '../time/units';
import { addDays, lastSettledDay, startOf } from './days';
import { scopeOf } from './scope';
import { DayBuilds } from './sync-day-builds';
import type { DayProgress } from './sync-day-progress';
import { runSyncStep, type SyncDeps } from './sync-step';

const account = { apiKey: 'demo', enterpriseId: null, sid: 'sid-demo' };
const scope = scopeOf(account).key;
const ROOMY = {
  UPSTREAM_LIMIT_PER_MINUTE: '10000',
  UPSTREAM_LIMIT_PER_HOUR: '100000',
  UPSTREAM_LIMIT_PER_DAY: '1000000',
};
let h: Harness | undefined;

afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function harness(sim: { maxPageSize: number; pageSizeOver: 'refuse' | 'clamp' }): Promise<Harness> {
  h = await startHarness({ sim: { perDay: 5000, days: 5, seed: 17, ...sim }, env: ROOMY });
  await h.syncRunner.stop();
  const now = Date.now();
  await h.store.vault.put({
    sid: account.sid,
    apiKey: 'demo',
    enterpriseId: null,
    sealedSecret: seal('demo-secret', authSecret()),
    createdAt: now,
    expiresAt: now + 3600_000,
  });
  return h;
}

/** The steps of the sync, as its runner runs them, the days read in full built meanwhile. */
function stepper(h: Harness) {
  const builds = new DayBuilds({
    history: h.store.history,
    index: { invalidate: () => undefined },
    log: createLogger({ level: 'error' }),
  });
  const deps: SyncDeps = {
    history: h.store.history,
    builds,
    vault: h.store.vault,
    gateway: h.gateway,
    policy: h.policy,
    config: h.config,
    pageSizes: h.pageSizes,
    secretOf: (sealed) => unseal(sealed, authSecret()),
    now: Date.now,
    log: createLogger({ level: 'error' }),
  };
  return { step: () => runSyncStep(deps, scope), builds };
}

/** Syncs until every wanted day is complete (or `steps` run out). */
async function copyAll(h: Harness, steps = 200): Promise<void> {
  const { step, builds } = stepper(h);
  for (let i = 0; i < steps && (await h.history.get(account)).state !== 'complete'; i++) {
    const outcome = await step();
    if (outcome.next !== 'continue') await builds.idle();
  }
  await builds.idle();
}

const queryCalls = (h: Harness) => h.sim.stats().accounts.demo?.queryRequests ?? 0;

/** Each complete day's records against the simulator's, trx_id by trx_id; answers the pages each day takes at `size`. */
async function sameAsSimulator(h: Harness, size: number): Promise<number> {
  const state = await h.history.get(account);
  const complete = state.days.filter((d) => d.state === 'complete');
  expect(complete.length).toBeGreaterThanOrEqual(2);
  let pages = 0;
  for (const d of complete) {
    const from = startOf(d.day);
    const sim = h.sim.dataset.query({
      from,
      to: from + DAY_MS,
      enterpriseId: 'ent-sakura',
      order: 'asc',
      offset: 0,
      limit: 1e7,
    });
    pages += Math.max(1, Math.ceil(sim.total / size));
    const expected = sim.indices
      .map((i) => h.sim.dataset.recordAt(i, 'UTC') as unknown as Cdr)
      .filter((r) => Date.parse(r.date_received.replace('+0000', 'Z')) < from + DAY_MS)
      .map((r) => r.trx_id);
    const search = { scope, ranges: [{ from, to: from + DAY_MS - 1 }], where: [], order: 'asc' as const };
    const held = (await h.store.history.page(search, 0, 100_000)).map((b) => (JSON.parse(b) as Cdr).trx_id);
    expect(held, d.day).toEqual(expected);
  }
  return pages;
}

describe('the page size the sync reads with', () => {
  it('is 1,000 where the upstream serves it: found by the sync’s first page, no call of its own', async () => {
    const h = await harness({ maxPageSize: 1000, pageSizeOver: 'refuse' });
    const newest = lastSettledDay(h.policy.settledBefore(Date.now()));
    await h.history.put(account, { enabled: true, since: addDays(newest, -2) });
    await copyAll(h);
    const state = await h.history.get(account);
    expect(state.state).toBe('complete');
    expect(state.pageSize).toMatchObject({ size: 1000, source: 'probed', refused: null });
    expect(state.recordsPerCall).toBe(1000);
    // Unlimited here; at the seed's limits the sync's 60 calls a day read 60,000 records.
    expect(state.keepsUpWith).toBeGreaterThan(60_000);
    expect(queryCalls(h)).toBe(await sameAsSimulator(h, 1000));
  }, 60_000);

  it('is what the upstream serves where it clamps larger pages: the probe’s page is the first page at that size', async () => {
    const h = await harness({ maxPageSize: 250, pageSizeOver: 'clamp' });
    const newest = lastSettledDay(h.policy.settledBefore(Date.now()));
    await h.history.put(account, { enabled: true, since: addDays(newest, -2) });
    await copyAll(h);
    expect((await h.history.get(account)).pageSize).toMatchObject({ size: 250, source: 'probed' });
    expect(queryCalls(h)).toBe(await sameAsSimulator(h, 250));
  }, 60_000);

  it('falls back to 100 where the upstream refuses 1,000, the refusal its only extra call, and says so', async () => {
    const h = await harness({ maxPageSize: 100, pageSizeOver: 'refuse' });
    const newest = lastSettledDay(h.policy.settledBefore(Date.now()));
    await h.history.put(account, { enabled: true, since: addDays(newest, -2) });
    await copyAll(h, 400);
    const state = await h.history.get(account);
    expect(state.pageSize).toMatchObject({ size: 100, source: 'fallback', refused: { asked: 1000, status: 400 } });
    expect(state.pageSize.decidedAt).not.toBeNull();
    expect(queryCalls(h)).toBe((await sameAsSimulator(h, 100)) + 1);
  }, 60_000);

  it('reads on at 100 from the page it stopped at when the upstream refuses a size it served before, paying no page twice', async () => {
    const h = await harness({ maxPageSize: 1000, pageSizeOver: 'refuse' });
    const newest = lastSettledDay(h.policy.settledBefore(Date.now()));
    await h.history.put(account, { enabled: true, since: addDays(newest, -2) });
    const { step, builds } = stepper(h);
    // The newest day's first page, at 1,000.
    expect(await step()).toEqual({ next: 'continue' });
    const first = (await h.store.history.getDay<DayProgress>(scope, newest))!.progress.windows[0]!;
    expect([first.pageSize, first.pagesDone, first.received]).toEqual([1000, 1, 1000]);
    expect(first.total).toBeGreaterThan(2000);

    // The upstream changes its mind: 100 at most from now on.
    h.sim.setPageSizeLimit({ max: 100 });
    const before = queryCalls(h);
    expect(await step()).toEqual({ next: 'continue' });
    expect(queryCalls(h) - before).toBe(1); // the refused page
    const day = (await h.store.history.getDay<DayProgress>(scope, newest))!;
    const w = day.progress.windows[0]!;
    // Counted at 100 from the 1,001st record: pages 1–10 at 100 are the page of 1,000 already read.
    expect([w.pageSize, w.pagesDone, w.received, w.pagesTotal]).toEqual([100, 10, 1000, Math.ceil(w.total! / 100)]);
    expect(day.progress.problem).toBeNull();
    const state = await h.history.get(account);
    expect(state.pageSize).toMatchObject({ size: 100, source: 'fallback', refused: { asked: 1000, status: 400 } });

    for (let i = 0; i < 400 && (await h.history.get(account)).state !== 'complete'; i++) {
      const outcome = await step();
      if (outcome.next !== 'continue') await builds.idle();
    }
    await builds.idle();
    // Every day equal to the simulator's; the calls: the newest day's first page at 1,000, the
    // refused one, then pages of 100 from its 11th, and the other days at 100.
    const pagesAt100 = await sameAsSimulator(h, 100);
    expect(queryCalls(h)).toBe(pagesAt100 - 10 + 1 + 1);
  }, 90_000);
});
