/**
 * The documented order, over real HTTP: date_received ascending, then trx_id ascending (asc and
 * `none`), exactly reversed for desc — on every page, with filters or without. The tie rule matters
 * because a client that copies records must reproduce the upstream's order from the records alone;
 * this world (seed 2, 6,000 a day) holds several pairs of records received in the same millisecond.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseUpstreamTimestamp } from '../lib/time/zones';
import type { SimCdr } from './cdr';
import { startSimulator, type RunningSimulator } from './server';
import { PINNED_NOW, apiGet, getToken, queryPath, utcWallClock, type PageBody } from './test-client';

const DAY = 86_400_000;
const PAGE_SIZE = 1000;
const RANGE = { 'date-from': utcWallClock(PINNED_NOW - 3 * DAY), 'date-to': utcWallClock(PINNED_NOW) };

let sim: RunningSimulator;
let support: string;
let demo: string;

beforeAll(async () => {
  sim = await startSimulator({
    port: 0,
    seed: 2,
    days: 3,
    perDay: 6000,
    maxPageSize: PAGE_SIZE,
    now: () => PINNED_NOW,
    limits: false,
    quiet: true,
  });
  [support, demo] = await Promise.all([getToken(sim, 'support'), getToken(sim, 'demo')]);
});
afterAll(() => sim.close());

/** Every record of the query, page after page. */
async function walk(token: string, params: Record<string, string>): Promise<SimCdr[]> {
  const out: SimCdr[] = [];
  for (let page = 1; ; page++) {
    const res = await apiGet(sim, queryPath({ ...RANGE, ...params, 'page-size': PAGE_SIZE, page }), token);
    expect(res.status, res.text).toBe(200);
    const body = res.json<PageBody>();
    out.push(...body._embedded.cdrs);
    if (out.length >= body._embedded.total_found) {
      expect(out).toHaveLength(body._embedded.total_found);
      return out;
    }
  }
}

const receivedMs = (c: SimCdr) => parseUpstreamTimestamp(c.date_received)!.getTime();

/** -1, 0 or 1 by the documented rule. */
function compare(a: SimCdr, b: SimCdr): number {
  const d = receivedMs(a) - receivedMs(b);
  if (d !== 0) return Math.sign(d);
  return a.trx_id < b.trx_id ? -1 : a.trx_id > b.trx_id ? 1 : 0;
}

/** Checks every adjacent pair is in the order (strictly: ids are unique); returns how many pairs were ties. */
function expectOrdered(records: SimCdr[], order: 'asc' | 'desc'): number {
  let ties = 0;
  for (let k = 1; k < records.length; k++) {
    const [a, b] = [records[k - 1]!, records[k]!];
    const c = compare(a, b);
    expect(c, `${order} at ${k}: ${a.date_received} ${a.trx_id} then ${b.date_received} ${b.trx_id}`).toBe(
      order === 'asc' ? -1 : 1,
    );
    if (receivedMs(a) === receivedMs(b)) ties++;
  }
  return ties;
}

/** Pairs of consecutive records received in the same millisecond. */
const tiePairs = (records: SimCdr[]) =>
  records.slice(1).flatMap((b, k) => (receivedMs(records[k]!) === receivedMs(b) ? [[records[k]!, b] as const] : []));

describe('order of a query', () => {
  it('walks three days by date_received then trx_id, asc and none alike, desc exactly reversed', async () => {
    const asc = await walk(support, {});
    expect(asc.length).toBeGreaterThan(10 * PAGE_SIZE); // many pages, so page boundaries are crossed
    expect(expectOrdered(asc, 'asc')).toBeGreaterThanOrEqual(3); // tie groups were met, not just distinct instants

    const none = await walk(support, { 'sort-order': 'none' });
    expect(none.map((c) => c.trx_id)).toEqual(asc.map((c) => c.trx_id));

    const desc = await walk(support, { 'sort-order': 'desc' });
    expectOrdered(desc, 'desc');
    expect(desc.map((c) => c.trx_id)).toEqual(asc.map((c) => c.trx_id).reverse());
  });

  it('keeps the order under an enterprise scope and filters, around a tie', async () => {
    const scoped = await walk(demo, {});
    const pairs = tiePairs(scoped);
    expect(pairs.length).toBeGreaterThan(0);
    // A filter that both records of a tie match, so the tie is inside the filtered result.
    const candidates = pairs.flatMap(([a, b]) =>
      (
        [
          ['status', 'delivery_status'],
          ['network', 'network_code'],
          ['oa', 'from_address'],
          ['api-key', 'api_key'],
        ] as const
      ).flatMap(([param, field]) =>
        a[field] === b[field] ? [{ param, value: a[field], ids: [a.trx_id, b.trx_id] }] : [],
      ),
    );
    expect(candidates.length).toBeGreaterThan(0);
    const { param, value, ids } = candidates.find((c) => c.param !== 'status') ?? candidates[0]!;

    const asc = await walk(demo, { [param]: value });
    expect(asc.length).toBeLessThan(scoped.length);
    expect(expectOrdered(asc, 'asc')).toBeGreaterThan(0);
    const at = asc.findIndex((c) => c.trx_id === ids[0]);
    expect(asc[at + 1]?.trx_id).toBe(ids[1]);

    const desc = await walk(demo, { [param]: value, 'sort-order': 'desc' });
    expectOrdered(desc, 'desc');
    expect(desc.map((c) => c.trx_id)).toEqual(asc.map((c) => c.trx_id).reverse());
  });
});
