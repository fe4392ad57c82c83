/**
 * The copy when the upstream misbehaves, step by step over real HTTP against the simulator (its
 * faults): it never comes back to a day at once without a call, never spends its share of the day
 * on a fault that does not pass, and never asks the token endpoint again and again with a secret it
 * refused. Each step is run here as the runner runs it (runSyncStep); its waits are read, not waited.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../tests/support/service-harness';
import { authSecret } from '../auth/auth-secret';
import { seal, unseal } from '../auth/secret-box';
import { startDay, type DayProgress } from './sync-day-progress';
import { stagedPage } from './store/staged-page';
import { addDays, lastSettledDay } from './days';
import { scopeOf } from './scope';
import { createLogger } from '../log';
import { backoffMs, MAX_FAILURES } from '../background/background-retry';
import { DayBuilds } from './sync-day-builds';
import { runSyncStep, type SyncDeps } from './sync-step';
import { parseHistorySettings } from './settings-request';
import { badRequest } from '../http/problem';
import { translate } from '../i18n/translate';
import { said } from '@/tests/support/said';

const NOW = Date.now();
let h: Harness;
let deps: SyncDeps;
const account = { apiKey: 'demo', enterpriseId: null, sid: 'sid-demo' };
const scope = () => scopeOf(account).key;
const queryCalls = () => h.sim.stats().accounts.demo?.queryRequests ?? 0;
const tokenRequests = () => h.sim.stats().accounts.demo?.tokenRequests ?? 0;

async function signedIn(): Promise<void> {
  await h.store.vault.put({
    sid: account.sid,
    apiKey: 'demo',
    enterpriseId: null,
    sealedSecret: seal('demo-secret', authSecret()),
    createdAt: NOW,
    expiresAt: NOW + 3600_000,
  });
}

async function day(d: string) {
  return (await h.store.history.listDays<DayProgress>(scope())).find((x) => x.day === d);
}

beforeAll(async () => {
  const roomy = {
    UPSTREAM_LIMIT_PER_MINUTE: '10000',
    UPSTREAM_LIMIT_PER_HOUR: '100000',
    UPSTREAM_LIMIT_PER_DAY: '1000000',
    // The faults here are counted call by call: no probe of the page size among them
    // (lib/history/sync-page-size.integration.test.ts tests the probe).
    UPSTREAM_PAGE_SIZE: '100',
  };
  h = await startHarness({ sim: { perDay: 300, days: 8, seed: 3 }, env: roomy });
  // Steps are run here one by one: the services' own runner (which a change of the copy wakes) stays still.
  await h.syncRunner.stop();
  deps = {
    history: h.store.history,
    builds: { start: () => undefined, resume: () => undefined },
    vault: h.store.vault,
    gateway: h.gateway,
    policy: h.policy,
    config: h.config,
    pageSizes: h.pageSizes,
    secretOf: (sealed) => unseal(sealed, authSecret()),
    now: Date.now,
    log: createLogger({ level: 'error' }),
  };
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  h.sim.clearFaults();
  h.sim.resetSecrets();
  await h.history.delete(account);
  await signedIn();
});

describe('the copy when the upstream misbehaves', () => {
  it('rests a day whose pages bring fewer records than counted, and goes on with the older days', async () => {
    const newest = lastSettledDay(h.policy.settledBefore(Date.now()));
    await h.history.put(account, { enabled: true, since: addDays(newest, -2) });
    // The day's first page comes three records short; its count stays.
    h.sim.setFaults({ shortBy: 3, count: 1 });
    const before = queryCalls();
    let steps = 0;
    while (!(await day(newest))?.progress.problem && steps < 20) {
      expect(await runSyncStep(deps, scope())).toEqual({ next: 'continue' });
      steps += 1;
    }
    // Every step made a call (none came back to the day without one), the last read its last page.
    expect(queryCalls() - before).toBe(steps);
    const rested = (await day(newest))!;
    expect(translate('en', rested.progress.problem!)).toMatch(
      /^The upstream counted ([\d,]+) records for .* but sent [\d,]+ in \d+ of \d+ pages; the day is read again later\.$/,
    );
    expect(rested.state).toBe('syncing');

    // The next step reads the day before; the page says which day rests, and until when.
    expect(await runSyncStep(deps, scope())).toEqual({ next: 'continue' });
    expect((await day(addDays(newest, -1)))?.calls).toBe(1);
    const state = await h.history.get(account, 'en');
    expect(state.days.find((d) => d.day === newest)?.state).toBe('waiting');
    expect(state.message).toContain(`${newest}: The upstream counted`);
    expect(state.message).toMatch(/\(again in \d+ h( \d+ min)?\)\.$/);
    // Nor can the copy be complete before the resting day is read again.
    expect(Date.parse(state.completeAt!)).toBeGreaterThanOrEqual(rested.updatedAt + 6 * 3600_000);
    // Paused by a person meanwhile: paused, the resting day no reason of theirs.
    const paused = await h.history.put(account, { enabled: false });
    expect([paused.state, paused.message]).toEqual(['paused', null]);
  });

  it('stops the copy on a query the upstream refuses for good, says why, and a pause later is the person’s own', async () => {
    // demo may not read ent-fuji: signed in for it, its copy's query is refused (403).
    const other = { apiKey: 'demo', enterpriseId: 'ent-fuji', sid: 'sid-demo' };
    const newest = lastSettledDay(h.policy.settledBefore(Date.now()));
    await h.history.put(other, { enabled: true, since: addDays(newest, -1) });
    const before = queryCalls();
    expect(await runSyncStep(deps, scopeOf(other).key)).toEqual({ next: 'stop' });
    expect(queryCalls() - before).toBe(1);
    const stopped = await h.history.get(other, 'en');
    expect([stopped.enabled, stopped.state]).toEqual([false, 'paused']);
    expect(stopped.message).toMatch(/^The Report API refused the sync’s query \(403\)/);
    await h.history.put(other, { enabled: true });
    const paused = await h.history.put(other, { enabled: false });
    expect([paused.state, paused.message]).toEqual(['off', null]);
    await h.history.delete(other);
  });

  it('waits longer after each failure, then rests the day rather than spend the day on a fault that does not pass', async () => {
    const newest = lastSettledDay(h.policy.settledBefore(Date.now()));
    await h.history.put(account, { enabled: true, since: addDays(newest, -2) });
    h.sim.setFaults({ status: 503 });
    const waits: number[] = [];
    for (let failures = 1; failures <= MAX_FAILURES; failures++) {
      const at = Date.now();
      const outcome = await runSyncStep(deps, scope());
      expect(outcome.next).toBe('wait');
      waits.push(Math.round(((outcome as { until: number }).until - at) / 1000));
      expect((await day(newest))?.progress.problem).toBeNull();
    }
    // Within a second of 30 s, 1, 2, 4, 8 and 15 minutes.
    for (const [i, seconds] of waits.entries())
      expect(Math.abs(seconds - backoffMs(i + 1) / 1000)).toBeLessThanOrEqual(1);
    expect(await runSyncStep(deps, scope())).toEqual({ next: 'continue' });
    expect(translate('en', (await day(newest))!.progress.problem!)).toMatch(
      new RegExp(`^The Report API failed ${MAX_FAILURES + 1} times in a row on this day`),
    );

    // The fault passes: the copy goes on with the day before, the resting one waits its turn.
    h.sim.clearFaults();
    expect(await runSyncStep(deps, scope())).toEqual({ next: 'continue' });
    expect((await day(addDays(newest, -1)))?.records).toBeGreaterThan(0);
  });

  it('waits longer each time when the upstream refuses the key’s queries with a fresh token, rather than ask again every look', async () => {
    const newest = lastSettledDay(h.policy.settledBefore(Date.now()));
    await h.history.put(account, { enabled: true, since: addDays(newest, -2) });
    h.sim.setFaults({ status: 401 });
    const waits: number[] = [];
    for (let i = 0; i < 3; i++) {
      const at = Date.now();
      const outcome = await runSyncStep(deps, scope());
      expect(outcome.next).toBe('wait');
      waits.push(Math.round(((outcome as { until: number }).until - at) / 1000));
    }
    expect(waits).toEqual([30, 60, 120]);
  });

  it('does not call a day complete when a record came twice and another never, though every count matched', async () => {
    const newest = lastSettledDay(h.policy.settledBefore(Date.now()));
    await h.history.put(account, { enabled: true, since: addDays(newest, -2) });
    const builds = new DayBuilds({ history: h.store.history, index: { invalidate: () => undefined }, log: deps.log });
    const copy = { ...deps, builds };
    /** Reads the day's pages, then waits for its build. */
    const copyDay = async (d: string) => {
      for (let i = 0; i < 20 && (await day(d))?.state !== 'building' && !(await day(d))?.progress.problem; i++)
        await runSyncStep(copy, scope());
      await builds.idle();
      return (await day(d))!;
    };
    h.sim.setFaults({ repeatFirst: true, count: 1 });
    const bad = await copyDay(newest);
    expect(bad.state).toBe('syncing');
    const problem = translate('en', bad.progress.problem!);
    expect(problem).toMatch(/^The upstream counted ([\d,]+) records for this day but ([\d,]+) different ones/);
    const [, counted, came] = /counted (\d+) .* but (\d+)/.exec(problem)!;
    expect(Number(came)).toBe(Number(counted) - 1);
    expect((await h.history.get(account)).days.find((d) => d.day === newest)?.state).not.toBe('complete');
    // The day before, read as the upstream sent it, is complete.
    const good = await copyDay(addDays(newest, -1));
    expect([good.state, good.progress.problem]).toEqual(['complete', null]);
  });

  it('stages a page it paid for when the store cannot be written for a moment (a database restarting), and does not pay for it again', async () => {
    const newest = lastSettledDay(h.policy.settledBefore(Date.now()));
    await h.history.put(account, { enabled: true, since: newest });
    let tries = 0;
    const flaky: SyncDeps = {
      ...deps,
      history: {
        ...deps.history,
        stageDayPage: async (...args: Parameters<SyncDeps['history']['stageDayPage']>) => {
          tries += 1;
          if (tries === 1)
            throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
          return deps.history.stageDayPage(...args);
        },
      },
    };
    const before = queryCalls();
    expect(await runSyncStep(flaky, scope())).toEqual({ next: 'continue' });
    expect(queryCalls() - before).toBe(1);
    expect(tries).toBe(2);
    const read = (await day(newest))!;
    expect(read.calls).toBe(1);
    expect(read.records).toBeGreaterThan(0);
  });

  it('writes nothing a step read before the copy was paused, deleted or given a later start day', async () => {
    const newest = lastSettledDay(h.policy.settledBefore(Date.now()));
    await h.history.put(account, { enabled: true, since: addDays(newest, -2) });
    const stale = {
      day: addDays(newest, -3),
      state: 'syncing' as const,
      progress: startDay(addDays(newest, -3)),
      records: 0,
      calls: 1,
      updatedAt: Date.now(),
      completedAt: null,
    };
    // Before the start day: dropped.
    await h.store.history.stageDayPage(scope(), stale, stagedPage([]));
    expect(await day(stale.day)).toBeUndefined();
    // Paused: dropped too; on again, written.
    const inRange = { ...stale, day: newest, progress: startDay(newest) };
    await h.history.put(account, { enabled: false });
    await h.store.history.stageDayPage(scope(), inRange, null);
    expect(await day(newest)).toBeUndefined();
    await h.history.put(account, { enabled: true });
    await h.store.history.stageDayPage(scope(), inRange, null);
    expect((await day(newest))?.state).toBe('syncing');
  });

  it('applies two changes of the settings asked at once (two tabs), both', async () => {
    const newest = lastSettledDay(h.policy.settledBefore(Date.now()));
    await h.history.put(account, { enabled: true, since: addDays(newest, -4) });
    await Promise.all([
      h.history.put(account, { enabled: false }),
      h.history.put(account, { since: addDays(newest, -2) }),
    ]);
    const settings = await h.store.history.getSettings(scope());
    expect([settings?.enabled, settings?.sinceDay]).toEqual([false, addDays(newest, -2)]);
  });

  it('refuses a setting it does not know, `__proto__` included', async () => {
    // Refused by the route's reader (PUT /api/history), before the service is asked.
    const refused = parseHistorySettings(JSON.parse('{"__proto__":{"enabled":true}}'), {
      now: Date.now(),
      maxDays: h.config.HISTORY_MAX_DAYS,
    });
    expect(refused.ok === false && badRequest(refused.errors).problem.status).toBe(400);
    expect(refused.ok === false && Object.entries(said(refused).errors)).toEqual([
      ['__proto__', expect.stringContaining('Unknown setting')],
    ]);
  });

  it('drops a kept secret the upstream refuses, and does not ask with it again', async () => {
    const newest = lastSettledDay(h.policy.settledBefore(Date.now()));
    await h.history.put(account, { enabled: true, since: addDays(newest, -2), keepSyncingSignedOut: true });
    // Signed out, and the secret changed upstream (the token the gateway holds is forgotten at sign-out).
    await h.store.vault.delete(account.sid);
    h.gateway.forget('demo');
    h.sim.setSecret('demo', 'a-new-secret');
    const before = tokenRequests();
    expect(await runSyncStep(deps, scope())).toEqual({ next: 'wait', until: null });
    expect(tokenRequests() - before).toBe(1);
    const settings = await h.store.history.getSettings(scope());
    expect([settings?.enabled, settings?.keepSignedOut, settings?.sealedSecret]).toEqual([true, false, null]);
    // Every later look waits for a sign-in, with no token request.
    for (let i = 0; i < 3; i++) expect(await runSyncStep(deps, scope())).toEqual({ next: 'wait', until: null });
    expect(tokenRequests() - before).toBe(1);
    expect((await h.history.get(account, 'en')).message).toMatch(/^Waiting for a sign-in/);
    // Said in the reader's language: the route passes the request's.
    expect((await h.history.get(account, 'ja')).message).toMatch(/^ログインを待っています。/);
  });
});
