/**
 * The client against the bundled simulator over real HTTP: the same bytes the real upstream would
 * see. Needs simulator/server.ts (another part of the tree); the simulator's clock is pinned so the
 * data and the token lifetimes are the same on every run.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../simulator/server';
import { formatWallClock } from '../time/zones';
import { createUpstreamClient, type UpstreamClient } from './report-api-client';
import { UpstreamError } from './errors';
import { upstreamProblem } from './problems';
import { renderProblem } from '../http/problem';
import { baseOf, type UpstreamRequest } from '../query/wire';
import { createTokenKeeper } from './token-keeper';

type Sim = Awaited<ReturnType<typeof startSimulator>>;

/** Noon in Tokyo, 15 March 2026 (the simulator's own pinned test time). */
const NOW = Date.UTC(2026, 2, 15, 3, 0, 0);
const HOUR = 3_600_000;

let sim: Sim;
let client: UpstreamClient;
let token: string;
/** Every error seen, checked at the end for the tokens that were live when it happened. */
const seen: { err: UpstreamError; secrets: string[] }[] = [];

/** A query of the last `days` days, in the upstream's own parameter names. */
const lastDays = (
  days: number,
  extra: Record<string, string> = {},
  sortOrder: 'asc' | 'desc' = 'desc',
): UpstreamRequest => ({
  base: baseOf({
    'date-from': formatWallClock(new Date(NOW - days * 24 * HOUR), 'UTC'),
    'date-to': formatWallClock(new Date(NOW), 'UTC'),
    'page-size': '25',
    tz: 'UTC',
    ...extra,
  }),
  page: 1,
  sortOrder,
});

async function failure(p: Promise<unknown>, secrets: string[] = [token]): Promise<UpstreamError> {
  const err = await p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UpstreamError);
  seen.push({ err: err as UpstreamError, secrets });
  return err as UpstreamError;
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0, limits: false, perDay: 200, quiet: true, now: () => NOW, days: 14 });
  client = createUpstreamClient({ baseUrl: sim.url, timeoutMs: 5_000 });
  token = (await client.getToken('demo', 'demo-secret')).token;
});

afterEach(() => sim?.clearFaults());

afterAll(async () => {
  await sim?.close();
});

describe('client ↔ simulator', () => {
  it('gets a token', async () => {
    const t = await client.getToken('demo', 'demo-secret');
    expect(t.token.split('.')).toHaveLength(3);
    expect(t.accountId).toBe('demo');
    expect(t.product).toEqual(expect.any(String));
    // 15 minutes from the simulator's clock, read from `YYYY/MM/DD HH:mm:ss` UTC.
    expect(t.validUntil.getTime()).toBe(NOW + 15 * 60_000);
  });

  it('a query page parses, with links and cdrs', async () => {
    const page = await client.queryTransactions(token, lastDays(3, { 'enterprise-id': 'ent-sakura' }));
    expect(page.page).toBe(1);
    expect(page.page_size).toBe(25);
    expect(page._embedded.total_found).toBeGreaterThan(25);
    expect(page._embedded.cdrs).toHaveLength(25);
    for (const name of ['self', 'next', 'first', 'last'] as const) {
      expect(page._links[name]?.href).toMatch(/^\/cdr\/v1\/report\/query\/sms\/transaction-history\/mt\?/);
    }
    const lastPage = Number(new URLSearchParams(page._links.last!.href.split('?')[1]).get('page'));
    expect(lastPage).toBe(Math.ceil(page._embedded.total_found / 25));
    for (const cdr of page._embedded.cdrs) {
      expect(cdr.trx_id).toMatch(/^[0-9a-f]{32}$/i);
      expect(cdr.enterprise_id).toBe('ent-sakura');
      expect(cdr._links?.self?.href).toBe(`/cdr/v1/report/cdr/sms/transaction-history/mt/${cdr.trx_id}`);
      expect(typeof cdr.how_many_message_parts === 'number' || cdr.how_many_message_parts === null).toBe(true);
    }
    // desc: newest first
    const received = page._embedded.cdrs.map((c) => c.date_received);
    expect([...received].sort().reverse()).toEqual(received);
  });

  it('sends filters the simulator understands (status, tz, asc)', async () => {
    const page = await client.queryTransactions(
      token,
      lastDays(3, { status: 'DELIVRD', tz: 'JST', 'page-size': '10' }, 'asc'),
    );
    expect(page._embedded.cdrs.length).toBeGreaterThan(0);
    for (const cdr of page._embedded.cdrs) {
      expect(cdr.delivery_status).toBe('DELIVRD');
      expect(cdr.date_received).toMatch(/\+0900$/);
    }
  });

  it('gives up an answer larger than UPSTREAM_MAX_BODY_BYTES, read or gzipped, and says so as a 502', async () => {
    const small = createUpstreamClient({ baseUrl: sim.url, timeoutMs: 5_000, maxBodyBytes: 8 * 1024 });
    const err = await failure(small.queryTransactions(token, lastDays(3, { 'page-size': '100' })));
    expect(err.kind).toBe('malformed');
    expect(err.status).toBe(200);
    expect(err.maxBodyBytes).toBe(8 * 1024);
    expect(err.message).toMatch(/larger than 8192 bytes \(UPSTREAM_MAX_BODY_BYTES\)/);
    const problem = renderProblem(upstreamProblem(err).problem, 'en');
    expect(problem.status).toBe(502);
    expect(problem.detail).toContain('UPSTREAM_MAX_BODY_BYTES');
    // A page under the limit is read as before.
    expect((await small.queryTransactions(token, lastDays(3, { 'page-size': '1' })))._embedded.cdrs).toHaveLength(1);
  });

  it('works with a base URL that ends in a slash', async () => {
    const slashed = createUpstreamClient({ baseUrl: `${sim.url}/` });
    const page = await slashed.queryTransactions(token, lastDays(1, { 'page-size': '10' }));
    expect(page.page_size).toBe(10);
  });

  it('fetches a detail', async () => {
    const page = await client.queryTransactions(token, lastDays(2, { 'page-size': '10' }));
    const first = page._embedded.cdrs[0]!;
    const detail = await client.getTransaction(token, first.trx_id);
    expect(detail.trx_id).toBe(first.trx_id);
    expect(detail.to_address).toBe(first.to_address);
    const jst = await client.getTransaction(token, first.trx_id, { tz: 'JST' });
    expect(jst.date_received).toMatch(/\+0900$/);
  });

  it('an unknown transaction → not_found', async () => {
    const err = await failure(client.getTransaction(token, 'ffffffffffffffffffffffffffffffff'));
    expect(err.kind).toBe('not_found');
    expect(err.status).toBe(404);
  });

  it('a bad request → bad_request with the upstream’s message', async () => {
    const err = await failure(client.queryTransactions(token, lastDays(40)));
    expect(err.kind).toBe('bad_request');
    expect(err.status).toBe(400);
    expect(err.upstreamMessage).toMatch(/date-to/);
    expect(err.upstreamMessage).toMatch(/31 days/);
    expect(err.message).toContain(err.upstreamMessage!);
  });

  it('another enterprise → forbidden', async () => {
    const err = await failure(client.queryTransactions(token, lastDays(1, { 'enterprise-id': 'ent-fuji' })));
    expect(err.kind).toBe('forbidden');
    expect(err.status).toBe(403);
  });

  it('a wrong secret → unauthorized', async () => {
    const err = await failure(client.getToken('demo', 'not-the-secret'), ['not-the-secret']);
    expect(err.kind).toBe('unauthorized');
    expect(err.status).toBe(401);
    expect(err.upstreamMessage).toEqual(expect.any(String));
  });

  it('an expired token → unauthorized; the keeper then renews and the retry works', async () => {
    const keeper = createTokenKeeper({ client, now: () => NOW });
    const creds = async () => ({ apiKey: 'fuji', secret: 'fuji-secret' });
    const old = await keeper.get('fuji', creds);
    sim.setFaults({ expireTokens: true });
    const err = await failure(client.queryTransactions(old.token, lastDays(1)), [old.token, token]);
    expect(err.kind).toBe('unauthorized');
    expect(err.status).toBe(401);
    expect(err.upstreamMessage).toMatch(/expired/);
    keeper.invalidate('fuji', old.token);
    const fresh = await keeper.get('fuji', creds);
    expect(fresh.token).not.toBe(old.token);
    const page = await client.queryTransactions(fresh.token, lastDays(1, { 'page-size': '10' }));
    expect(page._embedded.cdrs.every((c) => c.enterprise_id === 'ent-fuji')).toBe(true);
    token = (await client.getToken('demo', 'demo-secret')).token; // the shared one expired too
  });

  it('a 503 → unavailable (JSON and HTML error bodies)', async () => {
    sim.setFaults({ status: 503, count: 1 });
    const err = await failure(client.queryTransactions(token, lastDays(1)));
    expect(err).toMatchObject({ kind: 'unavailable', status: 503 });
    sim.setFaults({ status: 502, html: true, count: 1 });
    const html = await failure(client.getTransaction(token, 'ffffffffffffffffffffffffffffffff'));
    expect(html).toMatchObject({ kind: 'unavailable', status: 502 });
    expect(html.upstreamMessage).toMatch(/^502 /);
  });

  it('a 200 that is not JSON → malformed', async () => {
    sim.setFaults({ malformed: true, count: 1 });
    const err = await failure(client.queryTransactions(token, lastDays(1)));
    expect(err).toMatchObject({ kind: 'malformed', status: 200 });
    expect(err.message).toMatch(/not valid JSON/);
  });

  it('a truncated 200 → malformed', async () => {
    sim.setFaults({ truncated: true, count: 1 });
    const err = await failure(client.queryTransactions(token, lastDays(1)));
    expect(err).toMatchObject({ kind: 'malformed', status: 200 });
    expect(err.message).toMatch(/truncated/);
  });

  it('a hang with a short timeout → timeout; a caller abort is not', async () => {
    const impatient = createUpstreamClient({ baseUrl: sim.url, timeoutMs: 300 });
    sim.setFaults({ hang: true, count: 1 });
    const started = Date.now();
    const err = await failure(impatient.queryTransactions(token, lastDays(1)));
    expect(err.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(3_000);

    sim.setFaults({ hang: true, count: 1 });
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 100);
    const aborted = await client.queryTransactions(token, lastDays(1), ctl.signal).catch((e: unknown) => e);
    expect(aborted).not.toBeInstanceOf(UpstreamError);
    expect((aborted as Error).name).toBe('AbortError');
  });

  it('a connection refused → network', async () => {
    const nowhere = createUpstreamClient({ baseUrl: 'http://127.0.0.1:9', timeoutMs: 2_000 });
    const err = await failure(nowhere.queryTransactions(token, lastDays(1)));
    expect(err.kind).toBe('network');
  });

  it('no error message carried a token or a secret', () => {
    expect(seen.length).toBeGreaterThan(8);
    for (const { err, secrets } of seen) {
      const all = [err.message, err.upstreamMessage ?? '', String(err.stack), JSON.stringify(err)].join('\n');
      for (const s of [...secrets, token, 'demo-secret', 'fuji-secret']) expect(all).not.toContain(s);
    }
  });
});
