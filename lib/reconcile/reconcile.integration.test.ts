/**
 * Reconciliations end to end, over real HTTP against the simulator, through the composition root's
 * services (real client, governor, SQLite store, runner): every answered row equals the
 * simulator's record; the calls spent equal the plan's when the windows' sizes are known; a restart
 * mid-run pays no page twice; a list the local history holds completely costs nothing and answers at
 * once; a window turns into lookups when that is cheaper; references and numbers find several.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../tests/support/service-harness';
import { loadHistoryFixture } from '../../tests/support/history-fixture';
import { authSecret } from '../auth/auth-secret';
import { seal } from '../auth/secret-box';
import { dayOf } from '../history/days';
import { scopeOf } from '../history/scope';
import { parseQuery } from '../query/query';
import { formatWallClock, rezoneTimestamp } from '../time/zones';
import type { Reconciliation, ReconcileRow } from './api';
import { parseListText, parseListValues } from './parse-list';
import type { ReconcileInput } from './reconcile-request';
import { readReconcileRequest } from './reconcile-request';

const DAY = 86_400_000;
const NOW = Date.now();
let h: Harness;
const account = () => ({ ...h.account('demo'), sid: 'sid-demo' });

/** Instants of whole seconds, `days` ago at midnight UTC. */
const dayStart = (daysAgo: number) => Math.floor((NOW - daysAgo * DAY) / DAY) * DAY;

function simIds(from: number, to: number): string[] {
  const all = h.sim.dataset.query({ from, to, enterpriseId: 'ent-sakura', order: 'asc', offset: 0, limit: 1_000_000 });
  return all.indices.map((i) => h.sim.dataset.trxIdAt(i));
}

function simRecord(trxId: string): Record<string, unknown> {
  const row = h.sim.dataset.findByTrxId(trxId);
  if (row === null || row === undefined) throw new Error(`no record ${trxId}`);
  return h.sim.dataset.recordAt(row as number, 'UTC') as unknown as Record<string, unknown>;
}

function input(
  values: unknown[],
  kind: 'trx_id' | 'client-reference' | 'da',
  from: number,
  to: number,
): ReconcileInput {
  const reading = parseListValues(values, kind, 'UTC');
  if (!reading.ok) throw new Error(JSON.stringify(reading.errors));
  return {
    list: reading.list,
    source: null,
    tz: 'UTC',
    range: { from, to },
    expected: { count: null, cost: null, currency: null },
  };
}

async function untilOver(id: string, timeoutMs = 60_000): Promise<Reconciliation> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await h.reconciliations.get(account(), id);
    if (r.state === 'done' || r.state === 'failed') return r;
    if (Date.now() > until) throw new Error(`still ${r.state}: ${JSON.stringify(r.progress)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function allRows(id: string): Promise<ReconcileRow[]> {
  const rows: ReconcileRow[] = [];
  for (let page = 1; ; page++) {
    const got = await h.reconciliations.rows(account(), id, {
      outcome: null,
      status: null,
      page,
      pageSize: 500,
      tz: null,
    });
    rows.push(...got.rows);
    if (rows.length >= got.total) return rows;
  }
}

/** What a matched row must say: the simulator's record, field by field. */
function expectSameRecord(row: ReconcileRow, trxId: string): void {
  const sim = simRecord(trxId);
  expect(row.records).toHaveLength(1);
  const r = row.records[0]!;
  expect(r.trx_id).toBe(trxId);
  for (const key of ['delivery_status', 'dlr_error_code', 'network_name', 'price', 'price_currency'] as const)
    expect(r[key], key).toBe(String(sim[key]));
  expect(r.how_many_message_parts).toBe(sim.how_many_message_parts);
  expect(r.date_received).toBe(rezoneTimestamp(String(sim.date_received), 'UTC'));
  expect(r.date_delivered).toBe(rezoneTimestamp(String(sim.date_delivered), 'UTC'));
}

beforeAll(async () => {
  const roomy = {
    UPSTREAM_LIMIT_PER_MINUTE: '10000',
    UPSTREAM_LIMIT_PER_HOUR: '100000',
    UPSTREAM_LIMIT_PER_DAY: '1000000',
    UPSTREAM_BACKGROUND_RESERVE: '0',
  };
  h = await startHarness({ sim: { perDay: 900, days: 30, seed: 23 }, env: roomy });
  await h.store.vault.put({
    sid: 'sid-demo',
    apiKey: 'demo',
    enterpriseId: null,
    sealedSecret: seal('demo-secret', authSecret()),
    createdAt: NOW,
    expiresAt: NOW + 3600_000,
  });
  h.reconcileRunner.start();
}, 60_000);

afterAll(async () => {
  await h?.close();
});

describe('reconciling a list of trx_ids', () => {
  it('answers every row as the simulator holds it, unknown ids as not found, at the calls its plan said', async () => {
    const from = dayStart(12);
    const to = from + 2 * DAY;
    const ids = simIds(from, to);
    const picked = ids.filter((_, i) => i % 3 === 0);
    const unknown = ['0123456789abcdef0123456789abcdef', 'fedcba9876543210fedcba9876543210'];
    // The way people paste them: capitals, the UUID form; one listed twice.
    const values = [
      ...picked.map((id, i) => (i % 5 === 0 ? id.toUpperCase() : i % 7 === 0 ? uuidForm(id) : id)),
      ...unknown,
      picked[0],
    ];
    // A search of the very range first: its first page tells the window's size, so the plan is exact.
    const q = parseQuery({
      'date-from': formatWallClock(new Date(from), 'UTC'),
      'date-to': formatWallClock(new Date(to), 'UTC'),
      'page-size': '100',
      'sort-order': 'asc',
    });
    if (!q.ok) throw new Error('query');
    await h.transactions.page(account(), q.query);
    const before = h.upstreamCalls('demo');
    const created = await h.reconciliations.create(account(), input(values, 'trx_id', from, to));
    expect(created.state).toBe('planned');
    expect(created.plan).toMatchObject({ rows: values.length, local: 0, callsKnown: 'exact' });
    expect(created.plan.calls).toBe(Math.ceil(ids.length / 100) - 1);
    expect(created.plan.callsOneByOne).toBe(values.length);
    expect(h.upstreamCalls('demo')).toBe(before);
    await h.reconciliations.start(account(), created.id);
    const done = await untilOver(created.id);
    expect(done.state).toBe('done');
    expect(done.progress.callsSpent).toBe(created.plan.calls);
    expect(h.upstreamCalls('demo') - before).toBe(created.plan.calls);
    expect(done.summary.outcomes).toEqual({ matched: picked.length + 1, not_found: 2, several: 0, invalid: 0 });
    expect(done.summary.repeated).toBe(1);
    expect(done.summary.records).toBe(picked.length);
    const rows = await allRows(created.id);
    picked.forEach((id, i) => {
      expect(rows[i]!.outcome).toBe('matched');
      expectSameRecord(rows[i]!, id);
    });
    expect(rows.slice(picked.length, picked.length + 2).map((r) => r.outcome)).toEqual(['not_found', 'not_found']);
  });

  it('looks a few ids up one by one rather than read their days whole', async () => {
    const from = dayStart(20);
    const to = from + 3 * DAY;
    const ids = simIds(from, to).slice(10, 13);
    const before = h.upstreamCalls('demo');
    const created = await h.reconciliations.create(account(), input(ids, 'trx_id', from, to));
    // Nothing tells the window's size: three ids cost three lookups at most, and the first page (a call) would tell it.
    expect(created.plan).toMatchObject({ calls: 1, callsKnown: 'at-least', callsAtMost: 4 });
    await h.reconciliations.start(account(), created.id);
    const done = await untilOver(created.id);
    expect(done.summary.outcomes.matched).toBe(3);
    // The first page said 2,700 records (27 pages): the three ids were then looked up, two calls, as one of them was on it or not.
    expect(done.progress.callsSpent).toBeLessThanOrEqual(4);
    expect(h.upstreamCalls('demo') - before).toBe(done.progress.callsSpent);
    expect(done.notes.map((n) => n.code)).toContain('strategy-changed');
    const rows = await allRows(created.id);
    ids.forEach((id, i) => expectSameRecord(rows[i]!, id));
  });
});

describe('a list the local history holds completely', () => {
  it('costs nothing and is answered when it is made', async () => {
    const scope = scopeOf({ apiKey: 'demo', enterpriseId: 'ent-sakura' });
    await loadHistoryFixture(h.store.history, h.sim.dataset, {
      scope: scope.key,
      enterpriseId: 'ent-sakura',
      fromDay: dayOf(dayStart(9)),
      toDay: dayOf(dayStart(7)),
    });
    await h.store.history.settled();
    const from = dayStart(9);
    const to = dayStart(7) + DAY - 1000;
    const ids = simIds(from, to).filter((_, i) => i % 2 === 0);
    const before = h.upstreamCalls('demo');
    const created = await h.reconciliations.create(account(), input([...ids, 'ab'.repeat(16)], 'trx_id', from, to));
    expect(created.state).toBe('done');
    expect(created.plan).toMatchObject({ local: ids.length + 1, calls: 0, upstream: 0 });
    expect(h.upstreamCalls('demo')).toBe(before);
    const r = await h.reconciliations.get(account(), created.id);
    expect(r.summary.outcomes).toEqual({ matched: ids.length, not_found: 1, several: 0, invalid: 0 });
    const rows = await allRows(created.id);
    expectSameRecord(rows[0]!, ids[0]!);
  });
});

describe('references and numbers', () => {
  it('finds each reference with a filtered query when they are few, matched by send time', async () => {
    const from = dayStart(16);
    const to = from + DAY;
    const all = h.sim.dataset.query({
      from,
      to,
      enterpriseId: 'ent-sakura',
      order: 'asc',
      offset: 0,
      limit: 1_000_000,
    });
    const records = all.indices.map((i) => h.sim.dataset.recordAt(i, 'UTC') as unknown as Record<string, string>);
    const withRef = records.filter((r) => r.ref !== '').slice(0, 2);
    const text = ['client_reference,sent_at', ...withRef.map((r) => `${r.ref},${r.date_received}`), 'NOPE-0000,'].join(
      '\n',
    );
    const reading = parseListText(text, { tz: 'UTC' });
    if (!reading.ok) throw new Error(JSON.stringify(reading.errors));
    expect(reading.list.kind).toBe('client-reference');
    const created = await h.reconciliations.create(account(), {
      list: reading.list,
      source: 'refs.csv',
      tz: 'UTC',
      range: { from, to },
      expected: { count: 3, cost: null, currency: null },
    });
    // One window (the day of the row without a send time), of hundreds of records by the local
    // history's typical day: three filtered queries cost less.
    expect(created.plan.windows.map((w) => [w.strategy, w.recordsKnown, w.calls])).toEqual([['filter', 'estimate', 3]]);
    await h.reconciliations.start(account(), created.id);
    const done = await untilOver(created.id);
    const rows = await allRows(created.id);
    expect(rows.map((r) => r.outcome)).toEqual(['matched', 'matched', 'not_found']);
    expect(done.progress.callsSpent).toBe(3);
    expect(rows[0]!.records[0]!.trx_id).toBe(withRef[0]!.trx_id);
    expect(done.summary.variance.count).toEqual({ expected: 3, actual: 2, difference: -1, percent: -33.3 });
  });

  it('answers a number texted more than once in the range as several, every record listed', async () => {
    const from = dayStart(28);
    const to = dayStart(2);
    const all = h.sim.dataset.query({
      from,
      to,
      enterpriseId: 'ent-sakura',
      order: 'asc',
      offset: 0,
      limit: 1_000_000,
    });
    const byNumber = new Map<string, string[]>();
    for (const i of all.indices) {
      const r = h.sim.dataset.recordAt(i, 'UTC') as unknown as Record<string, string>;
      byNumber.set(r.to_address!, [...(byNumber.get(r.to_address!) ?? []), r.trx_id!]);
    }
    // The simulator's few dead numbers are texted again and again.
    const [number, trxIds] = [...byNumber.entries()].find(([, t]) => t.length > 1)!;
    const domestic = `0${number.slice(2, 4)}-${number.slice(4, 8)}-${number.slice(8)}`; // 090-1234-5678
    const several = await h.reconciliations.create(account(), input([domestic], 'da', from, to));
    // Days the local history holds cut the range in two windows; the number is one filtered query over both.
    expect(new Set(several.plan.windows.map((w) => w.strategy))).toEqual(new Set(['filter']));
    expect(several.plan.calls).toBe(1);
    await h.reconciliations.start(account(), several.id);
    const done = await untilOver(several.id);
    const [row] = await allRows(several.id);
    expect(row!.value).toBe(number);
    expect(row!.outcome).toBe('several');
    expect(row!.records.map((r) => r.trx_id).sort()).toEqual([...trxIds].sort());
    expect(done.summary.outcomes.several).toBe(1);
    expect(done.summary.records).toBe(trxIds.length);
    expect(done.progress.callsSpent).toBe(1);
  });
});

describe('whose it is', () => {
  it('is never visible to another account, and is forgotten, rows and all, when deleted', async () => {
    const from = dayStart(18);
    const created = await h.reconciliations.create(
      account(),
      input(simIds(from, from + DAY).slice(0, 5), 'trx_id', from, from + DAY),
    );
    // The same key signed in for no enterprise is another account (as an export's owner is).
    const other = { ...h.account('demo', null), sid: 'sid-demo' };
    for (const read of [
      () => h.reconciliations.get(other, created.id),
      () => h.reconciliations.rows(other, created.id, { outcome: null, status: null, page: 1, pageSize: 10, tz: null }),
      () => h.reconciliations.file(other, created.id, { excel: false, tz: null }),
      () => h.reconciliations.start(other, created.id),
      () => h.reconciliations.forget(other, created.id),
    ])
      await expect(read()).rejects.toMatchObject({ problem: { status: 404 } });
    expect((await h.reconciliations.list(other)).map((r) => r.id)).not.toContain(created.id);
    await h.reconciliations.forget(account(), created.id);
    await expect(h.reconciliations.get(account(), created.id)).rejects.toMatchObject({ problem: { status: 404 } });
    expect(await h.store.reconcile.rowBatch(created.id, 0, 10)).toEqual([]);
  });
});

describe('the upload', () => {
  it('reads a form with a CSV in Shift_JIS, Japanese headers and full-width ids, and lists bad rows with why', async () => {
    const from = dayStart(14);
    const id = simIds(from, from + DAY)[0]!;
    const wide = [...id.toUpperCase()].map((c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)).join('');
    const csv = `トランザクションID,メモ\r\n${wide},一件目\r\nnot-an-id,二件目\r\n`;
    const body = new FormData();
    body.set('file', new Blob([new TextEncoder().encode(csv)]), 'リスト.csv');
    body.set('date-from', formatWallClock(new Date(from), 'JST'));
    body.set('date-to', formatWallClock(new Date(from + DAY), 'JST'));
    body.set('tz', 'JST');
    const req = new Request('http://dashboard.test/api/reconciliations', { method: 'POST', body });
    const parsed = await readReconcileRequest(req);
    expect(parsed.list.kind).toBe('trx_id');
    expect(parsed.list.columns).toEqual(['トランザクションID', 'メモ']);
    expect(parsed.list.rows.map((r) => [r.value, r.problem?.code ?? null])).toEqual([
      [id, null],
      [null, 'trx-id-characters'],
    ]);
    const created = await h.reconciliations.create(account(), parsed);
    expect(created.plan).toMatchObject({ rows: 2, invalid: 1 });
    const r = await h.reconciliations.get(account(), created.id);
    expect(r.fileName).toBe('リスト_reconciled.csv');
  });
});

function uuidForm(id: string): string {
  return `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20)}`.toUpperCase();
}
