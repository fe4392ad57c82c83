/**
 * The planner's rule, on what a scope holds: what only the local history can answer, which held
 * days and results serve a query, an enterprise the history cannot answer for, and the plan's kind.
 */
import { describe, expect, it } from 'vitest';
import type { HistoryResult } from '../history/server';
import { parseQuery, type TransactionsQuery } from '../query/query';
import { onlyLocalCanAnswer, Planner, resultServes } from './planner';

const RANGE = { 'date-from': '2026-11-01 00:00:00', 'date-to': '2026-11-08 00:00:00' };
const D = Date.UTC(2026, 10, 1);
const DAY = 86_400_000;

function ok(input: Record<string, string>): TransactionsQuery {
  const r = parseQuery(input);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.query;
}

/** A planner over a scope holding these days and results; `enterprises`: those its records show. */
function plannerOf(held: { days?: string[]; results?: HistoryResult[]; enterprises?: string[] }) {
  const asked: string[] = [];
  const planner = new Planner({
    upstreamPageSize: 100,
    index: {
      holdsAnything: async () => (held.days?.length ?? 0) + (held.results?.length ?? 0) > 0,
      held: async () => ({ days: held.days ?? [], results: held.results ?? [] }),
      holdsEnterprise: async (_scope, enterpriseId) => {
        asked.push(enterpriseId);
        return held.enterprises?.includes(enterpriseId) ?? false;
      },
    },
  });
  return { planner, asked };
}

const account = { apiKey: 'support', enterpriseId: null };
const week = { from: D, to: D + 7 * DAY };
const days = (n: number) => Array.from({ length: n }, (_, i) => new Date(D + i * DAY).toISOString().slice(0, 10));

describe('what only the local history can answer', () => {
  it('is a local filter or another order, never an upstream filter', () => {
    expect(onlyLocalCanAnswer(ok({ ...RANGE, status: 'DELIVRD', da: '819012345678' }))).toBe(false);
    expect(onlyLocalCanAnswer(ok({ ...RANGE, q: 'hello' }))).toBe(true);
    expect(onlyLocalCanAnswer(ok({ ...RANGE, sort: 'to_address' }))).toBe(true);
  });
});

describe('a plan', () => {
  it('goes upstream for the whole range when nothing is held', async () => {
    const { planner } = plannerOf({});
    expect(await planner.plan(account, ok(RANGE), week)).toMatchObject({
      kind: 'upstream',
      piece: { kind: 'upstream', from: week.from, to: week.to },
    });
  });

  it('is local when complete days hold the whole range, composed when they hold part', async () => {
    expect((await plannerOf({ days: days(7) }).planner.plan(account, ok(RANGE), week)).kind).toBe('local');
    const part = await plannerOf({ days: days(3) }).planner.plan(account, ok(RANGE), week);
    expect(part.kind).toBe('composed');
    expect(part.kind === 'composed' && part.pieces.map((p) => p.kind)).toEqual(['local', 'upstream']);
  });

  it('reads a local-only query from what is held, naming what it could not search', async () => {
    const plan = await plannerOf({ days: days(3) }).planner.plan(account, ok({ ...RANGE, q: 'sakura' }), week);
    expect(plan).toMatchObject({
      kind: 'local-only',
      ranges: [{ from: D, to: D + 3 * DAY }],
      gaps: [{ from: D + 3 * DAY, to: D + 7 * DAY }],
    });
  });

  it('answers from a complete result only a query that asks for a part of it', async () => {
    const result = { key: 'r', filters: { status: 'DELIVRD' }, from: D, to: D + DAY };
    expect(resultServes(result, { status: 'DELIVRD', network: '44010' })).toBe(true);
    expect(resultServes(result, { network: '44010' })).toBe(false);
    const { planner } = plannerOf({ results: [result] });
    const day = { from: D, to: D + DAY };
    expect((await planner.plan(account, ok({ ...RANGE, status: 'DELIVRD' }), day)).kind).toBe('local');
    expect((await planner.plan(account, ok(RANGE), day)).kind).toBe('upstream');
  });

  it('sends upstream a query naming an enterprise the history holds no record of, and asks no more when it names none', async () => {
    const none = plannerOf({ days: days(7), enterprises: ['ent-sakura'] });
    expect((await none.planner.plan(account, ok({ ...RANGE, 'enterprise-id': 'ent-fuji' }), week)).kind).toBe(
      'upstream',
    );
    expect((await none.planner.plan(account, ok({ ...RANGE, 'enterprise-id': 'ent-sakura' }), week)).kind).toBe(
      'local',
    );
    expect((await none.planner.plan(account, ok(RANGE), week)).kind).toBe('local');
    expect(none.asked).toEqual(['ent-fuji', 'ent-sakura']);
    // Only the history can answer free text: its answer stands, whatever enterprise is named.
    const text = await none.planner.plan(account, ok({ ...RANGE, q: 'sakura', 'enterprise-id': 'ent-fuji' }), week);
    expect(text.kind === 'local-only' && text.ranges.length).toBe(1);
  });

  it('reads the session\u2019s own enterprise from its days without asking', async () => {
    const own = plannerOf({ days: days(7) });
    const sakura = { apiKey: 'demo', enterpriseId: 'ent-sakura' };
    expect((await own.planner.plan(sakura, ok(RANGE), week)).kind).toBe('local');
    expect(own.asked).toEqual([]);
  });
});
