/**
 * Conformance of the simulator to the seed and the upstream notes, over real HTTP: tokens, headers,
 * every parameter rule, filters, zones, sorting, paging, the links quirk, the detail resource and
 * enterprise scoping. Limits are off here (limits.test.ts covers them) so tests can call freely.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CDR_FIELDS } from '../lib/cdr/fields';
import { formatUpstreamTimestamp, parseUpstreamTimestamp } from '../lib/time/zones';
import { ENTERPRISES } from './accounts';
import type { SimCdr } from './cdr';
import { startSimulator, type RunningSimulator } from './server';
import {
  API_HEADERS,
  PINNED_NOW,
  apiGet,
  call,
  getToken,
  queryPath,
  utcWallClock,
  type ErrorJson,
  type PageBody,
} from './test-client';

const DAY = 86_400_000;
const QUERY = '/cdr/v1/report/query/sms/transaction-history/mt';
const DETAIL = '/cdr/v1/report/cdr/sms/transaction-history/mt/';

let sim: RunningSimulator;
let demo: string;
let support: string;
let fuji: string;

beforeAll(async () => {
  sim = await startSimulator({
    port: 0,
    seed: 7,
    days: 40,
    perDay: 400,
    now: () => PINNED_NOW,
    limits: false,
    quiet: true,
  });
  [demo, support, fuji] = await Promise.all([getToken(sim, 'demo'), getToken(sim, 'support'), getToken(sim, 'fuji')]);
});
afterAll(() => sim.close());

/** A 3-day range ending at "now", small enough to check against a brute-force scan. */
const RANGE = { 'date-from': utcWallClock(PINNED_NOW - 3 * DAY), 'date-to': utcWallClock(PINNED_NOW) };

/** Every visible row in [from, to] as the upstream would show it, for brute-force comparisons. */
function visibleRecords(from: number, to: number, enterpriseId: string | null, tz: 'UTC' | 'JST' = 'UTC'): SimCdr[] {
  const ds = sim.dataset;
  const out: SimCdr[] = [];
  for (let i = ds.lowerBound(from); i < ds.size && ds.receivedAt(i) <= Math.min(to, PINNED_NOW); i++) {
    if (enterpriseId === null || ds.enterpriseIdAt(i) === enterpriseId) out.push(ds.recordAt(i, tz, PINNED_NOW));
  }
  return out;
}

async function page(token: string, params: Record<string, string | number>): Promise<PageBody> {
  const res = await apiGet(sim, queryPath(params), token);
  expect(res.status, res.text).toBe(200);
  return res.json<PageBody>();
}

async function expect400(params: Record<string, string | number>, param: string, token = demo): Promise<string> {
  const res = await apiGet(sim, queryPath(params), token);
  expect(res.status, res.text).toBe(400);
  const body = res.json<ErrorJson>();
  expect(body).toMatchObject({ status: 400, error: 'Bad Request' });
  expect(body.message.startsWith(`${param}:`), body.message).toBe(true);
  return body.message;
}

describe('token endpoint', () => {
  const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;

  it('issues a signed JWT with account and validity in UTC', async () => {
    const res = await call(sim, '/auth/v1/token', {
      headers: { Accept: 'application/json', Authorization: basic('demo', 'demo-secret') },
    });
    expect(res.status).toBe(200);
    const body = res.json<{
      account: { account_id: string; product: string };
      jwt_token: string;
      token_valid_until: string;
    }>();
    expect(body.account).toEqual({ account_id: 'demo', product: 'CPaaS Report API' });
    expect(body.jwt_token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const payload = JSON.parse(Buffer.from(body.jwt_token.split('.')[1]!, 'base64url').toString()) as {
      sub: string;
      exp: number;
    };
    expect(payload.sub).toBe('demo');
    expect(payload.exp * 1000).toBe(PINNED_NOW + 900_000);
    expect(body.token_valid_until).toBe('2026/03/15 03:15:00');
  });

  it.each([
    ['a wrong secret', basic('demo', 'nope')],
    ['an unknown key', basic('nobody', 'nobody-secret')],
    ['no Basic credentials', undefined],
    ['a Bearer header', 'Bearer abc'],
  ])('answers 401 JSON to %s', async (_, authorization) => {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (authorization) headers.Authorization = authorization;
    const res = await call(sim, '/auth/v1/token', { headers });
    expect(res.status).toBe(401);
    expect(res.json<ErrorJson>()).toMatchObject({ status: 401, error: 'Unauthorized' });
  });

  it('wants Accept: application/json and GET', async () => {
    expect(
      (await call(sim, '/auth/v1/token', { headers: { Authorization: basic('demo', 'demo-secret') } })).status,
    ).toBe(406);
    const post = await call(sim, '/auth/v1/token', {
      method: 'POST',
      headers: { Accept: 'application/json', Authorization: basic('demo', 'demo-secret') },
    });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
  });
});

describe('query: authentication and headers', () => {
  const path = queryPath(RANGE);

  it('answers 401 without a token', async () => {
    const res = await call(sim, path, { headers: API_HEADERS });
    expect(res.status).toBe(401);
    expect(res.json<ErrorJson>().status).toBe(401);
  });

  it('answers 401 to a token sent in "Authentication" (the seed table\'s name), saying to use Authorization', async () => {
    const res = await call(sim, path, { headers: { ...API_HEADERS, Authentication: `Bearer ${demo}` } });
    expect(res.status).toBe(401);
    expect(res.json<ErrorJson>().message).toMatch(/Authorization/);
  });

  it('answers 401 to a forged, tampered or non-Bearer token', async () => {
    const [h, p] = demo.split('.');
    const forgedPayload = Buffer.from(JSON.stringify({ sub: 'support', iat: 0, exp: 9e9, jti: 0 })).toString(
      'base64url',
    );
    for (const auth of [
      `Bearer nonsense`,
      `Bearer ${h}.${forgedPayload}.${demo.split('.')[2]}`,
      `Bearer ${h}.${p}.AAAA`,
      `Basic ${demo}`,
      demo,
    ]) {
      const res = await call(sim, path, { headers: { ...API_HEADERS, Authorization: auth } });
      expect(res.status, auth).toBe(401);
    }
  });

  it('wants Accept: application/json', async () => {
    for (const accept of [undefined, '*/*', 'text/html']) {
      const headers: Record<string, string> = {
        'Content-Type': API_HEADERS['Content-Type'],
        Authorization: `Bearer ${demo}`,
      };
      if (accept) headers.Accept = accept;
      const res = await call(sim, path, { headers });
      expect(res.status, String(accept)).toBe(406);
      expect(res.json<ErrorJson>().message).toMatch(/^Accept:/);
    }
    expect((await apiGet(sim, path, demo, { Accept: 'text/plain, application/json;q=0.9' })).status).toBe(200);
  });

  it('wants Content-Type: application/json; charset=UTF-8, spelled any way', async () => {
    for (const type of [undefined, 'application/json', 'text/plain; charset=UTF-8']) {
      const headers: Record<string, string> = { Accept: 'application/json', Authorization: `Bearer ${demo}` };
      if (type) headers['Content-Type'] = type;
      const res = await call(sim, path, { headers });
      expect(res.status, String(type)).toBe(400);
      expect(res.json<ErrorJson>().message).toMatch(/^Content-Type:/);
    }
    for (const type of ['application/json;charset=utf-8', 'Application/JSON; Charset="UTF-8"']) {
      expect((await apiGet(sim, path, demo, { 'Content-Type': type })).status, type).toBe(200);
    }
  });

  it('rejects an expired token (short TTL, advancing clock), and hides records until they are received', async () => {
    let now = PINNED_NOW;
    const s = await startSimulator({
      port: 0,
      seed: 7,
      days: 3,
      perDay: 200,
      tokenTtlSeconds: 60,
      now: () => now,
      limits: false,
      quiet: true,
    });
    try {
      const token = await getToken(s, 'demo');
      const params = { 'date-from': utcWallClock(PINNED_NOW - DAY), 'date-to': utcWallClock(PINNED_NOW + DAY) };
      const before = await apiGet(s, queryPath(params), token);
      expect(before.status).toBe(200);
      const totalBefore = before.json<PageBody>()._embedded.total_found;
      now += 59_999;
      expect((await apiGet(s, queryPath(params), token)).status).toBe(200);
      now += 1;
      const expired = await apiGet(s, queryPath(params), token);
      expect(expired.status).toBe(401);
      expect(expired.json<ErrorJson>().message).toMatch(/expired/);
      // A fresh token, an hour later, sees the records received meanwhile.
      now += 3600_000;
      const later = await apiGet(s, queryPath(params), await getToken(s, 'demo'));
      expect(later.json<PageBody>()._embedded.total_found).toBeGreaterThan(totalBefore);
    } finally {
      await s.close();
    }
  });
});

describe('query: parameter rules', () => {
  it('requires date-from and date-to', async () => {
    await expect400({ 'date-to': RANGE['date-to'] }, 'date-from');
    await expect400({ 'date-from': RANGE['date-from'] }, 'date-to');
    await expect400({ 'date-from': '', 'date-to': RANGE['date-to'] }, 'date-from');
  });

  it.each([
    '2026-03-01T00:00:00',
    '2026-03-01 00:00',
    '2026/03/01 00:00:00',
    '2026-02-30 00:00:00',
    '2026-03-01 24:00:00',
    'yesterday',
    '2026-3-1 00:00:00',
  ])('rejects the date %j', async (bad) => {
    await expect400({ 'date-from': bad, 'date-to': '2026-03-05 00:00:00' }, 'date-from');
  });

  it('wants date-to after date-from', async () => {
    await expect400({ 'date-from': '2026-03-05 00:00:00', 'date-to': '2026-03-05 00:00:00' }, 'date-to');
    await expect400({ 'date-from': '2026-03-05 00:00:00', 'date-to': '2026-03-04 00:00:00' }, 'date-to');
  });

  it('allows exactly 31 days and refuses 31 days and a second', async () => {
    await page(demo, { 'date-from': '2026-02-12 00:00:00', 'date-to': '2026-03-15 00:00:00' });
    const msg = await expect400({ 'date-from': '2026-02-12 00:00:00', 'date-to': '2026-03-15 00:00:01' }, 'date-to');
    expect(msg).toBe('date-to: the date range must not exceed 31 days');
    // In JST the same wall-clock rule holds.
    await page(demo, { 'date-from': '2026-02-12 09:00:00', 'date-to': '2026-03-15 09:00:00', tz: 'JST' });
    await expect400({ 'date-from': '2026-02-12 09:00:00', 'date-to': '2026-03-15 09:00:01', tz: 'JST' }, 'date-to');
  });

  it('keeps page within 1..1000', async () => {
    await expect400({ ...RANGE, page: 0 }, 'page');
    await expect400({ ...RANGE, page: 1001 }, 'page');
    await expect400({ ...RANGE, page: -1 }, 'page');
    await expect400({ ...RANGE, page: '1.5' }, 'page');
    await expect400({ ...RANGE, page: 'abc' }, 'page');
    expect((await page(demo, { ...RANGE, page: 1 })).page).toBe(1);
    const last = await page(demo, { ...RANGE, page: 1000 });
    expect(last.page).toBe(1000);
    expect(last._embedded.cdrs).toEqual([]);
  });

  it('keeps page-size within 1..max (100)', async () => {
    await expect400({ ...RANGE, 'page-size': 0 }, 'page-size');
    await expect400({ ...RANGE, 'page-size': 101 }, 'page-size');
    const p = await page(demo, { ...RANGE, 'page-size': 100 });
    expect(p.page_size).toBe(100);
    expect(p._embedded.cdrs).toHaveLength(100);
    expect((await page(demo, RANGE)).page_size).toBe(25); // the default
  });

  it('serves pages above the largest at the largest when told to clamp, saying so in page_size and the links; and changes its mind while running', async () => {
    try {
      sim.setPageSizeLimit({ max: 60, over: 'clamp' });
      const clamped = await page(demo, { ...RANGE, 'page-size': 1000 });
      expect(clamped.page_size).toBe(60);
      expect(clamped._embedded.cdrs).toHaveLength(60);
      const last = new URL(clamped._links.last!.href, sim.url).searchParams;
      expect([last.get('page-size'), last.get('page')]).toEqual([
        '60',
        String(Math.ceil(clamped._embedded.total_found / 60)),
      ]);
      // Page 2 at the largest: the 61st record on.
      const second = await page(demo, { ...RANGE, 'page-size': 1000, page: 2 });
      const asked60 = await page(demo, { ...RANGE, 'page-size': 60, page: 2 });
      expect(second._embedded.cdrs.map((c) => c.trx_id)).toEqual(asked60._embedded.cdrs.map((c) => c.trx_id));
      // The same simulator refusing above 60 from now on.
      sim.setPageSizeLimit({ over: 'refuse' });
      await expect400({ ...RANGE, 'page-size': 61 }, 'page-size');
      expect((await page(demo, { ...RANGE, 'page-size': 60 }))._embedded.cdrs).toHaveLength(60);
      // And through its admin endpoint, for a simulator in a process of its own.
      const set = await fetch(`${sim.url}/__admin/page-size`, {
        method: 'POST',
        body: JSON.stringify({ max: 1000, over: 'refuse' }),
      });
      expect(await set.json()).toEqual({ max: 1000, over: 'refuse' });
      expect((await page(demo, { ...RANGE, 'page-size': 1000 })).page_size).toBe(1000);
    } finally {
      sim.setPageSizeLimit({ max: 100, over: 'refuse' });
    }
  });

  it('reads tz and sort-order strictly; an empty value means the default', async () => {
    await expect400({ ...RANGE, tz: 'utc' }, 'tz');
    await expect400({ ...RANGE, tz: 'Asia/Tokyo' }, 'tz');
    await expect400({ ...RANGE, 'sort-order': 'DESC' }, 'sort-order');
    await expect400({ ...RANGE, 'sort-order': 'random' }, 'sort-order');
    const p = await page(demo, { ...RANGE, tz: '', 'sort-order': '' });
    expect(p._embedded.cdrs[0]!.date_received).toMatch(/\+0000$/);
  });

  it('refuses an unknown status and a parameter given twice; ignores unknown parameters', async () => {
    await expect400({ ...RANGE, status: 'DELIVERED' }, 'status');
    const twice = await apiGet(sim, `${queryPath(RANGE)}&page=1&page=2`, demo);
    expect(twice.status).toBe(400);
    expect(twice.json<ErrorJson>().message).toMatch(/^page:/);
    expect((await page(demo, { ...RANGE, colour: 'blue', limit: 5 })).page_size).toBe(25);
  });
});

describe('query: results', () => {
  it("returns the seed's result page with every CDR field, typed as the seed says", async () => {
    const p = await page(demo, { ...RANGE, 'page-size': 50 });
    expect(Object.keys(p)).toEqual(['page_size', 'page', '_links', '_embedded']);
    expect(Object.keys(p._embedded)).toEqual(['total_found', 'cdrs']);
    const fieldKeys = CDR_FIELDS.map((f) => f.key).sort();
    for (const cdr of p._embedded.cdrs) {
      expect(
        Object.keys(cdr)
          .filter((k) => k !== '_links')
          .sort(),
      ).toEqual(fieldKeys);
      for (const f of CDR_FIELDS) {
        expect(typeof cdr[f.key], f.key).toBe(f.key === 'how_many_message_parts' ? 'number' : 'string');
      }
      expect(cdr.trx_id).toMatch(/^[0-9a-f]{32}$/);
      expect(cdr._links.self.href).toBe(`${DETAIL}${cdr.trx_id}`);
      expect(cdr.date_received).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+0000$/);
      expect(cdr.enterprise_id).toBe('ent-sakura');
    }
  });

  it("matches the dataset: total_found and the page's records", async () => {
    const from = PINNED_NOW - 3 * DAY;
    const all = visibleRecords(from, PINNED_NOW, 'ent-sakura');
    const p = await page(demo, { ...RANGE, page: 2, 'page-size': 30 });
    expect(p._embedded.total_found).toBe(all.length);
    expect(p._embedded.cdrs).toEqual(all.slice(30, 60));
  });

  const filterCases: [string, keyof SimCdr][] = [
    ['api-key', 'api_key'],
    ['network', 'network_code'],
    ['client-reference', 'ref'],
    ['da', 'to_address'],
    ['oa', 'from_address'],
    ['status', 'delivery_status'],
  ];
  it.each(filterCases)('filter %s narrows to exact matches of %s', async (param, field) => {
    const all = visibleRecords(PINNED_NOW - 3 * DAY, PINNED_NOW, 'ent-sakura');
    // Pick a value that exists but is not everywhere (a rare one for status, to test the filter properly).
    const values = all.map((c) => String(c[field])).filter((v) => v !== '');
    const value = param === 'status' ? 'UNDELIV' : values[Math.floor(values.length / 3)]!;
    const expected = all.filter((c) => c[field] === value);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(all.length);
    const p = await page(demo, { ...RANGE, [param]: value, 'page-size': 100 });
    expect(p._embedded.total_found).toBe(expected.length);
    expect(p._embedded.cdrs).toEqual(expected.slice(0, 100));
  });

  it('combines filters; a value that exists nowhere finds nothing', async () => {
    const all = visibleRecords(PINNED_NOW - 3 * DAY, PINNED_NOW, 'ent-sakura');
    const expected = all.filter(
      (c) => c.api_key === 'sakura-shop' && c.network_code === '44010' && c.delivery_status === 'DELIVRD',
    );
    const p = await page(demo, {
      ...RANGE,
      'api-key': 'sakura-shop',
      network: '44010',
      status: 'DELIVRD',
      'page-size': 100,
    });
    expect(p._embedded.total_found).toBe(expected.length);
    expect(p._embedded.cdrs).toEqual(expected.slice(0, 100));
    const nowhere: Record<string, string>[] = [
      { network: '44099' },
      { da: '+819012345678' },
      { 'client-reference': 'ORD-1999-0000001' },
      { 'api-key': 'fuji-tracking' },
    ];
    for (const params of nowhere) {
      const none = await page(demo, { ...RANGE, ...params });
      expect(none._embedded.total_found, JSON.stringify(params)).toBe(0);
      expect(none._links.last.href).toContain('page=1&');
      expect(none._links.next).toBeUndefined();
    }
  });

  it('reads the range in tz and writes timestamps in it: UTC +0000, JST +0900, same instants', async () => {
    const utc = await page(demo, {
      'date-from': '2026-03-13 00:00:00',
      'date-to': '2026-03-14 00:00:00',
      'page-size': 100,
    });
    const jst = await page(demo, {
      'date-from': '2026-03-13 09:00:00',
      'date-to': '2026-03-14 09:00:00',
      tz: 'JST',
      'page-size': 100,
    });
    expect(jst._embedded.total_found).toBe(utc._embedded.total_found);
    expect(jst._embedded.cdrs.map((c) => c.trx_id)).toEqual(utc._embedded.cdrs.map((c) => c.trx_id));
    utc._embedded.cdrs.forEach((u, k) => {
      const j = jst._embedded.cdrs[k]!;
      expect(u.date_received).toMatch(/\+0000$/);
      expect(j.date_received).toMatch(/\+0900$/);
      expect(j.date_received).toBe(formatUpstreamTimestamp(parseUpstreamTimestamp(u.date_received)!, 'JST'));
      if (u.date_delivered) expect(j.date_delivered).toMatch(/\+0900$/);
    });
    // A JST calendar day is 15:00 UTC the day before to 15:00 UTC.
    const day = await page(demo, {
      'date-from': '2026-03-13 00:00:00',
      'date-to': '2026-03-14 00:00:00',
      tz: 'JST',
      'page-size': 100,
    });
    const first = parseUpstreamTimestamp(day._embedded.cdrs[0]!.date_received)!.getTime();
    expect(first).toBeGreaterThanOrEqual(Date.UTC(2026, 2, 12, 15));
    expect(day._embedded.total_found).toBe(
      visibleRecords(Date.UTC(2026, 2, 12, 15), Date.UTC(2026, 2, 13, 15), 'ent-sakura').length,
    );
  });

  it('includes both ends of the range, to the millisecond', async () => {
    const ds = sim.dataset;
    // Scheduled campaign sends start on …:00.000, exactly where a range may begin or end.
    let i = ds.upperBound(PINNED_NOW) - 1;
    while (i > 0 && !(ds.receivedAt(i) % 1000 === 0 && ds.enterpriseIdAt(i) === 'ent-sakura')) i--;
    expect(ds.receivedAt(i) % 1000).toBe(0);
    const at = ds.receivedAt(i);
    const trx = ds.trxIdAt(i);
    const endsAt = await page(demo, {
      'date-from': utcWallClock(at - 3600_000),
      'date-to': utcWallClock(at),
      'sort-order': 'desc',
      'page-size': 100,
    });
    expect(endsAt._embedded.cdrs.map((c) => c.trx_id)).toContain(trx);
    const startsAt = await page(demo, {
      'date-from': utcWallClock(at),
      'date-to': utcWallClock(at + 3600_000),
      'page-size': 100,
    });
    expect(startsAt._embedded.cdrs.map((c) => c.trx_id)).toContain(trx);
    const after = await page(demo, {
      'date-from': utcWallClock(at + 1000),
      'date-to': utcWallClock(at + 3600_000),
      'page-size': 100,
    });
    expect(after._embedded.cdrs.map((c) => c.trx_id)).not.toContain(trx);
  });

  it('sorts on date_received: asc by default and for none, desc reversed', async () => {
    const ts = (p: PageBody) =>
      p._embedded.cdrs.map((c) => Date.parse(c.date_received.replace(/(\d{2})(\d{2})$/, '$1:$2')));
    const params = { ...RANGE, 'page-size': 100 };
    const asc = await page(demo, { ...params, 'sort-order': 'asc' });
    const none = await page(demo, { ...params, 'sort-order': 'none' });
    const absent = await page(demo, params);
    expect(none._embedded.cdrs).toEqual(asc._embedded.cdrs);
    expect(absent._embedded.cdrs).toEqual(asc._embedded.cdrs);
    const a = ts(asc);
    expect(a).toEqual([...a].sort((x, y) => x - y));
    const desc = await page(demo, { ...params, 'sort-order': 'desc' });
    const d = ts(desc);
    expect(d).toEqual([...d].sort((x, y) => y - x));
    const all = visibleRecords(PINNED_NOW - 3 * DAY, PINNED_NOW, 'ent-sakura');
    expect(desc._embedded.cdrs).toEqual(all.slice(-100).reverse());
  });

  it('pages without gaps or overlaps', async () => {
    const all = visibleRecords(PINNED_NOW - 3 * DAY, PINNED_NOW, 'ent-sakura');
    const seen: string[] = [];
    const last = Math.ceil(all.length / 100);
    for (let n = 1; n <= last; n++)
      seen.push(...(await page(demo, { ...RANGE, page: n, 'page-size': 100 }))._embedded.cdrs.map((c) => c.trx_id));
    expect(seen).toEqual(all.map((c) => c.trx_id));
  });
});

describe('query: links', () => {
  const params = {
    'date-from': '2026-03-10 00:00:00',
    'date-to': '2026-03-12 23:59:59',
    tz: 'JST',
    'sort-order': 'desc',
    network: '44010',
    page: 2,
    'page-size': 10,
  };
  const href = (n: number, ent = 'ent-sakura', size = 10) =>
    `${QUERY}?page=${n}&page-size=${size}&enterprise-id=${ent}&sort-order=none&date-from=2026-03-10+00%3A00%3A00&tz=`;

  it("carry only page, page-size, enterprise-id, sort-order=none, date-from and an empty tz (the sample's quirk)", async () => {
    const p = await page(demo, params);
    const last = Math.max(1, Math.ceil(p._embedded.total_found / 10));
    expect(last).toBeGreaterThan(3);
    expect(p._links).toEqual({
      self: { href: href(2) },
      next: { href: href(3) },
      first: { href: href(1) },
      last: { href: href(last) },
    });
    expect(Object.keys(p._links)).toEqual(['self', 'next', 'first', 'last']);
  });

  it('leave out next on the last page; a page past the last is empty', async () => {
    const first = await page(demo, params);
    const last = Math.ceil(first._embedded.total_found / 10);
    const onLast = await page(demo, { ...params, page: last });
    expect(onLast._links.next).toBeUndefined();
    expect(onLast._links.last.href).toBe(href(last));
    expect(onLast._embedded.cdrs.length).toBe(first._embedded.total_found - (last - 1) * 10);
    const past = await page(demo, { ...params, page: last + 1 });
    expect(past._embedded.cdrs).toEqual([]);
    expect(past._embedded.total_found).toBe(first._embedded.total_found);
    expect(past._links.next).toBeUndefined();
  });

  it('break a client that follows them blindly: date-to is gone', async () => {
    const p = await page(demo, params);
    const res = await apiGet(sim, p._links.next!.href, demo);
    expect(res.status).toBe(400);
    expect(res.json<ErrorJson>().message).toMatch(/^date-to:/);
  });

  it("name the support key's enterprise-id as given, or none", async () => {
    const all = await page(support, { ...params, page: 1 });
    expect(all._links.self.href).toBe(href(1, ''));
    const one = await page(support, { ...params, page: 1, 'enterprise-id': 'ent-fuji' });
    expect(one._links.self.href).toBe(href(1, 'ent-fuji'));
  });
});

describe('enterprise scoping', () => {
  it('a normal key sees its own enterprise; enterprise-id of another one is 403', async () => {
    const own = await page(fuji, { ...RANGE, 'page-size': 100 });
    expect(new Set(own._embedded.cdrs.map((c) => c.enterprise_id))).toEqual(new Set(['ent-fuji']));
    expect((await page(demo, { ...RANGE, 'enterprise-id': 'ent-sakura' }))._embedded.total_found).toBeGreaterThan(0);
    for (const other of ['ent-fuji', 'ent-unknown']) {
      const res = await apiGet(sim, queryPath({ ...RANGE, 'enterprise-id': other }), demo);
      expect(res.status).toBe(403);
      expect(res.json<ErrorJson>()).toMatchObject({ status: 403, error: 'Forbidden' });
      expect(res.json<ErrorJson>().message).toMatch(/^enterprise-id:/);
    }
  });

  it('the support key sees all enterprises, or the one enterprise-id names', async () => {
    const totals = await Promise.all(
      ENTERPRISES.map(async (e) => (await page(support, { ...RANGE, 'enterprise-id': e.id }))._embedded.total_found),
    );
    const all = await page(support, RANGE);
    expect(all._embedded.total_found).toBe(totals.reduce((a, b) => a + b, 0));
    expect(all._embedded.total_found).toBe(visibleRecords(PINNED_NOW - 3 * DAY, PINNED_NOW, null).length);
    const fujiOnly = await page(support, { ...RANGE, 'enterprise-id': 'ent-fuji', 'page-size': 100 });
    expect(new Set(fujiOnly._embedded.cdrs.map((c) => c.enterprise_id))).toEqual(new Set(['ent-fuji']));
    expect((await page(support, { ...RANGE, 'enterprise-id': 'ent-nobody' }))._embedded.total_found).toBe(0);
  });
});

describe('detail resource', () => {
  it('returns the bare CDR, in the zone asked for', async () => {
    const p = await page(demo, { ...RANGE, 'page-size': 5 });
    const cdr = p._embedded.cdrs[3]!;
    const res = await apiGet(sim, cdr._links.self.href, demo);
    expect(res.status).toBe(200);
    expect(res.json()).toEqual(cdr);
    const jst = await apiGet(sim, `${cdr._links.self.href}?tz=JST`, demo);
    expect(jst.json<SimCdr>().date_received).toMatch(/\+0900$/);
    expect((await apiGet(sim, `${cdr._links.self.href}?tz=CET`, demo)).status).toBe(400);
  });

  it('answers 404 for unknown, malformed, foreign and not-yet-received ids; support sees every enterprise', async () => {
    const ds = sim.dataset;
    const known = ds.trxIdAt(ds.lowerBound(PINNED_NOW - DAY));
    const flipped = known.slice(0, 31) + (known[31] === '0' ? '1' : '0');
    let fujiRow = ds.lowerBound(PINNED_NOW - DAY);
    while (ds.enterpriseIdAt(fujiRow) !== 'ent-fuji') fujiRow++;
    const future = ds.upperBound(PINNED_NOW) + 5;
    expect(future).toBeLessThan(ds.size);
    for (const id of [flipped, 'f'.repeat(32), 'xyz', known.toUpperCase(), ds.trxIdAt(fujiRow), ds.trxIdAt(future)]) {
      const res = await apiGet(sim, DETAIL + id, demo);
      expect(res.status, id).toBe(404);
      expect(res.json<ErrorJson>()).toMatchObject({ status: 404, error: 'Not Found' });
    }
    expect((await apiGet(sim, DETAIL + ds.trxIdAt(fujiRow), support)).json<SimCdr>().enterprise_id).toBe('ent-fuji');
    expect((await apiGet(sim, DETAIL + ds.trxIdAt(fujiRow), fuji)).status).toBe(200);
    expect((await apiGet(sim, DETAIL + ds.trxIdAt(future), support)).status).toBe(404);
  });

  it('needs the same headers as the query', async () => {
    const id = sim.dataset.trxIdAt(sim.dataset.lowerBound(PINNED_NOW - DAY));
    expect((await call(sim, DETAIL + id, { headers: API_HEADERS })).status).toBe(401);
    expect((await apiGet(sim, DETAIL + id, demo, { Accept: 'text/html' })).status).toBe(406);
  });
});

describe('routing', () => {
  it('answers 404 JSON for other paths and 405 for other methods', async () => {
    for (const path of [
      '/',
      '/cdr/v1/report/query/sms/transaction-history/mo',
      `${QUERY}/`,
      `${DETAIL}abc/def`,
      '/cdr/v2/report/query/sms/transaction-history/mt',
    ]) {
      const res = await apiGet(sim, path, demo);
      expect(res.status, path).toBe(404);
      expect(res.json<ErrorJson>().status).toBe(404);
    }
    for (const method of ['POST', 'PUT', 'DELETE', 'HEAD']) {
      const res = await call(sim, queryPath(RANGE), {
        method,
        headers: { ...API_HEADERS, Authorization: `Bearer ${demo}` },
      });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow')).toBe('GET');
    }
  });
});

describe('includeBodies: false', () => {
  it('leaves message_body out and unencrypted_message_body empty', async () => {
    const s = await startSimulator({
      port: 0,
      seed: 7,
      days: 2,
      perDay: 300,
      now: () => PINNED_NOW,
      limits: false,
      includeBodies: false,
      quiet: true,
    });
    try {
      const p = (
        await apiGet(s, queryPath({ ...RANGE, 'page-size': 100 }), await getToken(s, 'minato'))
      ).json<PageBody>();
      expect(p._embedded.cdrs.length).toBeGreaterThan(0);
      for (const c of p._embedded.cdrs) {
        expect('message_body' in c).toBe(false);
        expect(c.unencrypted_message_body).toBe('');
        expect(Number(c.message_length)).toBeGreaterThan(0);
      }
    } finally {
      await s.close();
    }
  });
});
