/**
 * The local history end to end, over real HTTP against the simulator: the copy of several settled
 * days (limits scaled up), then varied searches that must equal the simulator's own answers record
 * for record — with no upstream call — and searches only the copy can answer, checked against the
 * simulator's records filtered here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../tests/support/service-harness';
import { exportRequest } from '../../tests/support/parsed';
import { authSecret } from '../auth/auth-secret';
import { seal } from '../auth/secret-box';
import type { Cdr } from '../cdr/schema';
import { parseQuery, type TransactionsQuery } from '../query/query';
import { formatWallClock, type Zone } from '../time/zones';
import { addDays, dayOf, startOf } from './days';
import { translate } from '../i18n/translate';

const NOW = Date.now();
const DAY = 86_400_000;
const SINCE = dayOf(NOW - 7 * DAY);
let h: Harness;
const account = () => ({ ...h.account('demo'), sid: 'sid-demo' });
const signedInForNone = () => ({ ...h.account('demo', null), sid: 'sid-demo' });

function query(params: Record<string, string>): TransactionsQuery {
  const r = parseQuery(params);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.query;
}

/** The simulator's answer to the same query (its own search, in its own order). */
function expected(q: TransactionsQuery): { total: number; ids: string[] } {
  const enterpriseId = 'ent-sakura';
  const filters = Object.fromEntries(
    Object.entries(q.filters).filter(([k]) =>
      ['api-key', 'network', 'client-reference', 'da', 'oa', 'status'].includes(k),
    ),
  );
  const all = h.sim.dataset.query({
    from: q.from.getTime(),
    to: q.to.getTime(),
    enterpriseId,
    filters,
    order: q.sortOrder,
    offset: 0,
    limit: 1_000_000,
  });
  const start = (q.page - 1) * q.pageSize;
  return { total: all.total, ids: all.indices.slice(start, start + q.pageSize).map((i) => h.sim.dataset.trxIdAt(i)) };
}

/** Every record of the range as the simulator builds it (to filter here for what only the copy can do). */
function simRecords(from: number, to: number): Cdr[] {
  const all = h.sim.dataset.query({ from, to, enterpriseId: 'ent-sakura', order: 'asc', offset: 0, limit: 1_000_000 });
  return all.indices.map((i) => h.sim.dataset.recordAt(i, 'UTC') as unknown as Cdr);
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  const roomy = {
    UPSTREAM_LIMIT_PER_MINUTE: '10000',
    UPSTREAM_LIMIT_PER_HOUR: '100000',
    UPSTREAM_LIMIT_PER_DAY: '1000000',
  };
  h = await startHarness({ sim: { perDay: 1500, days: 12, seed: 11 }, env: roomy });
  // A signed-in session of demo: the copy renews its token with its secret.
  await h.store.vault.put({
    sid: 'sid-demo',
    apiKey: 'demo',
    enterpriseId: null,
    sealedSecret: seal('demo-secret', authSecret()),
    createdAt: NOW,
    expiresAt: NOW + 3600_000,
  });
  await h.history.put(account(), { enabled: true, since: SINCE });
  // The same key signed in for no enterprise: a copy of its own (what the key may read).
  await h.history.put(signedInForNone(), { enabled: true, since: SINCE });
  h.syncRunner.start();
  await waitFor(
    async () =>
      (await h.history.get(account())).state === 'complete' &&
      (await h.history.get(signedInForNone())).state === 'complete',
    60_000,
  );
  await h.syncRunner.stop();
}, 90_000);

afterAll(async () => {
  await h?.close();
});

describe('the local history', () => {
  it('copies every settled day from the start day, each complete with the upstream’s count', async () => {
    const state = await h.history.get(account());
    const complete = state.days.filter((d) => d.state === 'complete');
    const lastSettled = dayOf(h.policy.settledBefore(Date.now()) - DAY);
    expect(complete.map((d) => d.day).sort()).toEqual(
      Array.from({ length: (startOf(lastSettled) - startOf(SINCE)) / DAY + 1 }, (_, i) => addDays(SINCE, i)),
    );
    for (const d of complete) {
      const from = startOf(d.day);
      const sim = h.sim.dataset.query({ from, to: from + DAY - 1, enterpriseId: 'ent-sakura', limit: 0 });
      expect(d.records, d.day).toBe(sim.total);
    }
    expect(state.days.some((d) => d.state === 'unsettled')).toBe(true);
    expect(state.callsToday).toBeGreaterThan(0);
    expect([state.callsLeft, state.completeAt !== null]).toEqual([0, true]);
    // A day's pages of 100 (the page size the copy reads with), on average over the days copied.
    expect(state.recordsPerCall).toBe(100);
    const pages = complete.map((d) => Math.ceil(d.records / 100));
    expect(state.callsPerDay).toBe(Math.round(pages.reduce((s, n) => s + n, 0) / pages.length));
  });

  it('does not guess how long a copy takes before the upstream has told the size of a day', async () => {
    // support has no signed-in session: its copy waits for one, and no page of it is read yet.
    const support = { ...h.account('support'), sid: 'sid-none' };
    const state = await h.history.put(support, { enabled: true, since: SINCE });
    expect([state.state, state.callsLeft, state.callsPerDay, state.completeAt]).toEqual(['waiting', null, null, null]);
    await h.history.delete(support);
  });

  it('says a search partly over complete days costs at least what it can count before the upstream tells a size', async () => {
    // A range no other test has asked (its upstream part's size is not cached).
    const from = startOf(SINCE) - 3_599_000;
    const q = query({
      'date-from': formatWallClock(new Date(from), 'UTC'),
      'date-to': formatWallClock(new Date(from + 5 * 3600_000), 'UTC'),
      'page-size': '100',
      'sort-order': 'asc',
      tz: 'UTC',
    });
    const plan = await h.transactions.plan(account(), q);
    // Not searched here: its result would be kept, and the other tests' ranges would change.
    expect([plan.source, plan.calls, plan.callsAtLeast]).toEqual(['mixed', 1, true]);
  });

  it('creates an export over complete days that says at once it needs no call', async () => {
    const from = startOf(SINCE);
    const wall = (ms: number) => formatWallClock(new Date(ms), 'UTC');
    const created = await h.exports.create(
      account(),
      exportRequest({ 'date-from': wall(from), 'date-to': wall(from + 2 * DAY) }, account().enterpriseId),
    );
    if (created.kind !== 'job') throw new Error('no job');
    expect(created.job.schedule?.calls).toBe(0);
    await h.exports.cancel(account(), created.job.id);
    const estimated = await h.exports.create(
      account(),
      exportRequest(
        {
          'date-from': wall(from),
          'date-to': wall(from + 2 * DAY),
          dryRun: true,
        },
        account().enterpriseId,
      ),
    );
    if (estimated.kind !== 'estimate') throw new Error('no estimate');
    expect([
      estimated.estimate.calls,
      estimated.estimate.pagesCached,
      translate('en', estimated.estimate.summary),
    ]).toEqual([0, 0, 'No upstream call: read from the local history.']);
  });

  it('says a copy stopped after it began is paused, not off, and goes on when started again', async () => {
    const none = signedInForNone();
    expect((await h.history.put(none, { enabled: false })).state).toBe('paused');
    expect((await h.history.get(none)).state).toBe('paused');
    expect((await h.history.put(none, { enabled: true })).state).toBe('complete');
  });

  it('is not turned on by a change that does not say "enabled"', async () => {
    const support = { ...h.account('support'), sid: 'sid-none' };
    expect((await h.history.put(support, {})).enabled).toBe(false);
    const state = await h.history.put(support, { since: SINCE });
    expect([state.enabled, state.state, state.since]).toEqual([false, 'off', SINCE]);
    await h.history.delete(support);
  });

  it('answers varied searches over complete days exactly as the upstream would, with no call', async () => {
    const first = startOf(SINCE);
    const last = startOf(dayOf(h.policy.settledBefore(Date.now()) - DAY)) + DAY;
    const sample = simRecords(first, first + 2 * DAY).filter((_, i) => i % 37 === 0);
    const before = h.upstreamCalls('demo');
    const cases: Record<string, string>[] = [];
    const tzs: Zone[] = ['UTC', 'JST'];
    for (let i = 0; i < 30; i++) {
      const tz = tzs[i % 2]!;
      const r = sample[i % sample.length] as unknown as Record<string, string>;
      const span = [DAY, 3 * DAY, 7 * 3600_000, last - first][i % 4]!;
      const from = Math.floor((first + ((i * 7919) % 3) * 3600_000) / 1000) * 1000;
      const to = Math.min(last, from + span);
      const filter: Record<string, string> = [
        {},
        { status: r.delivery_status! },
        { network: r.network_code! },
        { oa: r.from_address! },
        { da: r.to_address! },
        { 'client-reference': r.ref! },
        { 'api-key': r.api_key! },
        { status: 'UNDELIV', network: r.network_code! },
      ][i % 8]!;
      cases.push({
        'date-from': formatWallClock(new Date(from), tz),
        'date-to': formatWallClock(new Date(to), tz),
        tz,
        'sort-order': i % 3 === 0 ? 'asc' : 'desc',
        'page-size': ['10', '25', '50', '100'][i % 4]!,
        page: String(1 + (i % 3)),
        ...filter,
      });
    }
    for (const params of cases) {
      const q = query(params);
      const page = await h.transactions.page(account(), q);
      const want = expected(q);
      expect(page._meta.source, JSON.stringify(params)).toBe('history');
      expect(page._embedded.total_found, JSON.stringify(params)).toBe(want.total);
      expect(
        page._embedded.cdrs.map((c) => c.trx_id),
        JSON.stringify(params),
      ).toEqual(want.ids);
    }
    expect(h.upstreamCalls('demo')).toBe(before);
  });

  it('searches what only a local copy can: free text (Japanese too), the last digits of a number, another order', async () => {
    const from = startOf(SINCE);
    const to = from + 2 * DAY;
    const records = simRecords(from, to);
    const range = {
      'date-from': formatWallClock(new Date(from), 'UTC'),
      'date-to': formatWallClock(new Date(to), 'UTC'),
      'page-size': '100',
    };
    const text = (c: Cdr) =>
      [c.trx_id, c.to_address, c.from_address, c.ref, c.message_body, c.unencrypted_message_body]
        .join('\n')
        .toLowerCase();

    const japanese = records
      .map((c) => c.message_body as string)
      .find((b) => /[\u3040-\u30ff\u4e00-\u9fff]{3}/.test(b ?? ''))!;
    const word = /[\u3040-\u30ff\u4e00-\u9fff]{3}/.exec(japanese)![0];
    const byText = await h.transactions.page(account(), query({ ...range, q: word }));
    expect(byText._embedded.total_found).toBe(records.filter((c) => text(c).includes(word)).length);
    expect(byText._meta).toMatchObject({ source: 'history', calls: 0 });

    const upper = (records[3]!.ref as string).toUpperCase();
    const byRef = await h.transactions.page(account(), query({ ...range, q: upper }));
    expect(byRef._embedded.total_found).toBe(records.filter((c) => text(c).includes(upper.toLowerCase())).length);

    const digits = (records[5]!.to_address as string).slice(-4);
    const bySuffix = await h.transactions.page(account(), query({ ...range, 'da-suffix': digits }));
    expect(bySuffix._embedded.total_found).toBe(
      records.filter((c) => (c.to_address as string).endsWith(digits)).length,
    );
    expect(bySuffix._embedded.cdrs.every((c) => (c.to_address as string).endsWith(digits))).toBe(true);

    const byPrice = await h.transactions.page(account(), query({ ...range, sort: 'price', 'sort-order': 'desc' }));
    const prices = byPrice._embedded.cdrs.map((c) => Number(c.price || '-1'));
    expect(prices).toEqual([...prices].sort((a, b) => b - a));

    const slow = await h.transactions.page(account(), query({ ...range, 'latency-min': '30', status: 'DELIVRD' }));
    expect(slow._embedded.total_found).toBe(
      records.filter(
        (c) =>
          c.delivery_status === 'DELIVRD' &&
          c.date_delivered &&
          Date.parse(c.date_delivered.replace('+0000', 'Z')) -
            Date.parse((c.date_submitted_to_mno as string).replace('+0000', 'Z')) >=
            30_000,
      ).length,
    );
  });

  it('says which part of a range it could not search for a query only the copy can answer', async () => {
    const from = startOf(SINCE) - DAY; // the day before the start day is not copied
    const page = await h.transactions.page(
      account(),
      query({
        'date-from': formatWallClock(new Date(from), 'UTC'),
        'date-to': formatWallClock(new Date(from + 2 * DAY), 'UTC'),
        q: 'sakura',
      }),
    );
    expect(page._meta.source).toBe('history');
    expect(page._meta.uncovered).toEqual([
      { dateFrom: formatWallClock(new Date(from), 'UTC'), dateTo: formatWallClock(new Date(startOf(SINCE)), 'UTC') },
    ]);
  });

  it('asks the upstream only for the part of a range it does not hold, and composes one answer', async () => {
    const lastSettled = dayOf(h.policy.settledBefore(Date.now()) - DAY);
    const from = startOf(lastSettled) + 12 * 3600_000; // half a complete day…
    const to = from + DAY; // …and half a day not copied
    for (const order of ['desc', 'asc']) {
      for (const page of ['1', '3']) {
        const q = query({
          'date-from': formatWallClock(new Date(from), 'UTC'),
          'date-to': formatWallClock(new Date(to), 'UTC'),
          'sort-order': order,
          page,
          'page-size': '50',
        });
        const answer = await h.transactions.page(account(), q);
        const want = expected(q);
        expect(answer._meta.source).toMatch(/mixed|history/);
        expect(answer._embedded.total_found).toBe(want.total);
        expect(answer._embedded.cdrs.map((c) => c.trx_id)).toEqual(want.ids);
      }
    }
  });

  it('spends no call on a page of local records whose upstream part has its count cached (the other order, a later page)', async () => {
    const lastSettled = dayOf(h.policy.settledBefore(Date.now()) - DAY);
    const from = startOf(lastSettled) + 6 * 3600_000; // 18 hours of a complete day…
    const to = from + DAY; // …then 6 not copied
    const params = (order: string) => ({
      'date-from': formatWallClock(new Date(from), 'UTC'),
      'date-to': formatWallClock(new Date(to), 'UTC'),
      'sort-order': order,
      'page-size': '50',
    });
    const newestFirst = await h.transactions.page(account(), query(params('desc')));
    expect(newestFirst._meta).toMatchObject({ source: 'mixed', calls: 1 });
    // Oldest first, page 1 is the complete day's alone; the upstream part's count is known.
    const q = query(params('asc'));
    expect((await h.transactions.plan(account(), q)).calls).toBe(0);
    const before = h.upstreamCalls('demo');
    const oldestFirst = await h.transactions.page(account(), q);
    expect(oldestFirst._meta.calls).toBe(0);
    expect(h.upstreamCalls('demo')).toBe(before);
    // Its total is as old as the cached page that said the count.
    expect(oldestFirst._meta.fetchedAt).toBe(newestFirst._meta.fetchedAt);
    const want = expected(q);
    expect([oldestFirst._embedded.total_found, oldestFirst._embedded.cdrs.map((c) => c.trx_id)]).toEqual([
      want.total,
      want.ids,
    ]);
  });

  it('never shows one account’s copy to another, free text included', async () => {
    const from = startOf(SINCE);
    const q = query({
      'date-from': formatWallClock(new Date(from), 'UTC'),
      'date-to': formatWallClock(new Date(from + DAY), 'UTC'),
      q: 'sakura',
    });
    expect((await h.transactions.page(account(), q))._embedded.total_found).toBeGreaterThan(0);
    // Another enterprise, and another key of the same enterprise: neither reads demo's copy.
    for (const other of ['fuji', 'sakura-ops']) {
      const page = await h.transactions.page(h.account(other), q);
      expect(page._embedded.total_found, other).toBe(0);
      expect(page._meta.uncovered?.length, other).toBeGreaterThan(0);
    }
  });

  it('answers an enterprise a key signed in for none may not read as the upstream does (refused), and its own and free text from the copy', async () => {
    // demo is a key of ent-sakura. Signed in for no enterprise, its copy holds what the key may read.
    const none = signedInForNone();
    const wall = (ms: number) => formatWallClock(new Date(ms), 'UTC');
    const day = { 'date-from': wall(startOf(SINCE)), 'date-to': wall(startOf(SINCE) + DAY - 1000) };
    const calls = () => h.upstreamCalls('demo');
    const before = calls();
    const own = await h.transactions.page(none, query({ ...day, 'enterprise-id': 'ent-sakura' }));
    expect(own._meta).toMatchObject({ source: 'history', calls: 0 });
    expect(own._embedded.total_found).toBe(expected(query(day)).total);
    // The copy holds no record of ent-fuji: the upstream is asked, and refuses, as without a copy.
    await expect(h.transactions.page(none, query({ ...day, 'enterprise-id': 'ent-fuji' }))).rejects.toMatchObject({
      kind: 'forbidden',
    });
    // Free text is the copy's alone: its answer stands (nothing of ent-fuji), and the day counts as searched.
    const text = await h.transactions.page(none, query({ ...day, q: 'sakura', 'enterprise-id': 'ent-fuji' }));
    expect([text._meta.source, text._embedded.total_found, text._meta.uncovered ?? []]).toEqual(['history', 0, []]);
    // An export of it alike: read from the copy, no warning of days not copied.
    const estimated = await h.exports.create(
      none,
      exportRequest({ ...day, q: 'sakura', 'enterprise-id': 'ent-fuji', dryRun: true }, none.enterpriseId),
    );
    if (estimated.kind !== 'estimate') throw new Error('no estimate');
    expect([estimated.estimate.records, estimated.estimate.calls, estimated.estimate.warnings]).toEqual([0, 0, []]);
    expect(calls()).toBe(before + 1);
    // A complete result of the cache is held alike: sakura-ops (a key of ent-sakura, signed in for
    // none, no copy) reads a settled hour whole (one page of 100), kept as a result once stored.
    const ops = h.account('sakura-ops', null);
    const hour = { 'date-from': wall(startOf(SINCE)), 'date-to': wall(startOf(SINCE) + 3_599_000), 'page-size': '100' };
    const opsBefore = h.upstreamCalls('sakura-ops');
    expect((await h.transactions.page(ops, query(hour)))._meta).toMatchObject({ source: 'upstream', calls: 1 });
    await waitFor(async () => (await h.transactions.plan(ops, query(hour))).source === 'history', 10_000);
    await expect(h.transactions.page(ops, query({ ...hour, 'enterprise-id': 'ent-fuji' }))).rejects.toMatchObject({
      kind: 'forbidden',
    });
    expect((await h.transactions.page(ops, query({ ...hour, 'enterprise-id': 'ent-sakura' })))._meta).toMatchObject({
      source: 'history',
      calls: 0,
    });
    expect(h.upstreamCalls('sakura-ops')).toBe(opsBefore + 2);
    await h.history.delete(none);
  });

  // Last: it deletes the copy the tests above read.
  it('forgets a deleted copy at once: the next search of a day it held asks the upstream', async () => {
    const from = startOf(SINCE);
    const q = query({
      'date-from': formatWallClock(new Date(from), 'UTC'),
      'date-to': formatWallClock(new Date(from + DAY - 1000), 'UTC'),
    });
    expect((await h.transactions.page(account(), q))._meta).toMatchObject({ source: 'history', calls: 0 });
    await h.history.delete(account());
    const after = await h.transactions.page(account(), q);
    expect(after._meta).toMatchObject({ source: 'upstream', calls: 1 });
    expect(after._embedded.total_found).toBe(expected(q).total);
  });
});
