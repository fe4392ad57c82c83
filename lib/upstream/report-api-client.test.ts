import { describe, expect, it } from 'vitest';
import { createUpstreamClient } from './report-api-client';
import { isRetryable, UpstreamError, type UpstreamErrorKind } from './errors';
import { baseOf, type UpstreamRequest } from '../query/wire';
import { fakeFetch, json, SAMPLE_JWT, sampleCdr, samplePage, text, type Answer } from './test-fixtures';

const BASE = 'https://api.example.test';
const NOW = Date.UTC(2025, 9, 8, 12, 0, 0);
const TOKEN = SAMPLE_JWT;

const query: UpstreamRequest = {
  base: baseOf({
    'enterprise-id': 'ent-sakura',
    'date-from': '2025-10-01 00:00:00',
    'date-to': '2025-10-08 23:59:59',
    'page-size': '25',
    tz: 'UTC',
  }),
  page: 1,
  sortOrder: 'desc',
};

function client(answers: Answer[], opts: { timeoutMs?: number; baseUrl?: string; userAgent?: string } = {}) {
  const fake = fakeFetch(...answers);
  const c = createUpstreamClient({
    baseUrl: opts.baseUrl ?? BASE,
    transport: fake.fetch,
    now: () => NOW,
    timeoutMs: opts.timeoutMs,
    userAgent: opts.userAgent,
  });
  return { c, calls: fake.calls };
}

async function failure(p: Promise<unknown>): Promise<UpstreamError> {
  const err = await p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UpstreamError);
  return err as UpstreamError;
}

describe('getToken', () => {
  const tokenBody = {
    account: { account_id: 'demo', product: 'SMS' },
    jwt_token: TOKEN,
    token_valid_until: '2025/10/08 12:15:00',
  };

  it('sends GET /auth/v1/token with Basic base64(apiKey:secret) and Accept, nothing else', async () => {
    const { c, calls } = client([json(tokenBody)]);
    const t = await c.getToken('demo', 'demo-secret');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe(`${BASE}/auth/v1/token`);
    expect(calls[0]!.method).toBe('GET');
    expect(calls[0]!.body).toBeUndefined();
    expect(calls[0]!.headers).toEqual({
      authorization: `Basic ${Buffer.from('demo:demo-secret').toString('base64')}`,
      accept: 'application/json',
    });
    expect(t).toEqual({
      token: TOKEN,
      validUntil: new Date('2025-10-08T12:15:00Z'),
      accountId: 'demo',
      product: 'SMS',
    });
  });

  it('encodes the Basic pair as UTF-8', async () => {
    const { c, calls } = client([json(tokenBody)]);
    await c.getToken('ключ', '秘密-sécret');
    const sent = calls[0]!.headers.authorization!.replace(/^Basic /, '');
    expect(Buffer.from(sent, 'base64').toString('utf8')).toBe('ключ:秘密-sécret');
  });

  it('reads token_valid_until as YYYY/MM/DD and as yyyy-MM-dd, both UTC', async () => {
    for (const [raw, iso] of [
      ['2025/10/08 12:15:00', '2025-10-08T12:15:00Z'],
      ['2025-10-08 12:15:00', '2025-10-08T12:15:00Z'],
      ['2025-10-08T12:15:00Z', '2025-10-08T12:15:00Z'],
      ['2025-10-08 21:15:00+09:00', '2025-10-08T12:15:00Z'],
    ] as const) {
      const { c } = client([json({ ...tokenBody, token_valid_until: raw })]);
      expect((await c.getToken('demo', 'demo-secret')).validUntil.toISOString()).toBe(new Date(iso).toISOString());
    }
  });

  it('assumes the documented 15 minutes when token_valid_until is missing or unreadable', async () => {
    for (const until of [undefined, null, '', 'soon', '2025/02/30 10:00:00']) {
      const { c } = client([json({ ...tokenBody, token_valid_until: until })]);
      expect((await c.getToken('demo', 'demo-secret')).validUntil.getTime()).toBe(NOW + 15 * 60_000);
    }
  });

  it('falls back to the API key as account id, and leaves product out when absent', async () => {
    const { c } = client([json({ jwt_token: TOKEN, token_valid_until: '2025/10/08 12:15:00' })]);
    const t = await c.getToken('demo', 'demo-secret');
    expect(t.accountId).toBe('demo');
    expect('product' in t).toBe(false);
  });

  it('wrong secret → unauthorized, and neither the secret nor the Basic value is in the error', async () => {
    const basic = Buffer.from('demo:wrong-secret').toString('base64');
    const { c } = client([json({ error: `bad credentials wrong-secret (Basic ${basic})` }, { status: 401 })]);
    const err = await failure(c.getToken('demo', 'wrong-secret'));
    expect(err.kind).toBe('unauthorized');
    expect(err.status).toBe(401);
    for (const s of [err.message, err.upstreamMessage ?? '', String(err.stack), JSON.stringify(err)]) {
      expect(s).not.toContain('wrong-secret');
      expect(s).not.toContain(basic);
    }
  });

  it('a body without jwt_token is malformed', async () => {
    const { c } = client([json({ account: { account_id: 'demo' } })]);
    const err = await failure(c.getToken('demo', 'demo-secret'));
    expect(err.kind).toBe('malformed');
    expect(err.message).toContain('jwt_token');
  });

  it('refuses without a call: empty credentials, a colon in the key', async () => {
    const { c, calls } = client([json(tokenBody)]);
    expect((await failure(c.getToken('', 'x'))).kind).toBe('unauthorized');
    expect((await failure(c.getToken('a', ''))).kind).toBe('unauthorized');
    expect((await failure(c.getToken('a:b', 'x'))).kind).toBe('bad_request');
    expect(calls).toHaveLength(0);
  });
});

describe('queryTransactions', () => {
  it('sends the sample request: path, encoding, headers, no body', async () => {
    const { c, calls } = client([json(samplePage())]);
    await c.queryTransactions(TOKEN, query);
    const call = calls[0]!;
    expect(call.url).toBe(
      `${BASE}/cdr/v1/report/query/sms/transaction-history/mt?enterprise-id=ent-sakura&date-from=2025-10-01+00%3A00%3A00&date-to=2025-10-08+23%3A59%3A59&page-size=25&page=1&tz=UTC&sort-order=desc`,
    );
    expect(call.method).toBe('GET');
    expect(call.body).toBeUndefined();
    expect(call.redirect).toBe('manual');
    expect(call.headers).toEqual({
      authorization: `Bearer ${TOKEN}`,
      accept: 'application/json',
      'content-type': 'application/json; charset=UTF-8',
    });
  });

  it('adds User-Agent only when configured', async () => {
    const { c, calls } = client([json(samplePage())], { userAgent: 'sms-dashboard/0.1' });
    await c.queryTransactions(TOKEN, query);
    expect(calls[0]!.headers['user-agent']).toBe('sms-dashboard/0.1');
  });

  it('appends to a base URL with a trailing slash or a path prefix', async () => {
    for (const [base, expected] of [
      ['https://h.test', 'https://h.test/cdr/v1/'],
      ['https://h.test/', 'https://h.test/cdr/v1/'],
      ['https://h.test/gw/report', 'https://h.test/gw/report/cdr/v1/'],
      ['https://h.test/gw/report//', 'https://h.test/gw/report/cdr/v1/'],
      ['http://127.0.0.1:8080/', 'http://127.0.0.1:8080/cdr/v1/'],
    ] as const) {
      const { c, calls } = client([json(samplePage())], { baseUrl: base });
      await c.queryTransactions(TOKEN, query);
      expect(calls[0]!.url.startsWith(expected)).toBe(true);
    }
  });

  it('refuses a base URL that is not http(s) or that carries credentials', () => {
    expect(() => createUpstreamClient({ baseUrl: 'ftp://h.test' })).toThrow(TypeError);
    expect(() => createUpstreamClient({ baseUrl: 'https://u:p@h.test' })).toThrow(TypeError);
    expect(() => createUpstreamClient({ baseUrl: 'not a url' })).toThrow(TypeError);
  });

  it('parses a page: links, total, cdrs', async () => {
    const { c } = client([json(samplePage([sampleCdr(), sampleCdr({ trx_id: 'ffeeddccbbaa99887766554433221100' })]))]);
    const page = await c.queryTransactions(TOKEN, query);
    expect(page.page).toBe(1);
    expect(page.page_size).toBe(25);
    expect(page._embedded.total_found).toBe(80);
    expect(page._embedded.cdrs.map((r) => r.trx_id)).toEqual([
      '0a1b2c3d4e5f60718293a4b5c6d7e8f9',
      'ffeeddccbbaa99887766554433221100',
    ]);
    expect(page._links.next?.href).toContain('page=2');
    expect(page._links.last?.href).toContain('page=4');
  });

  it('is tolerant: numbers as strings and strings as numbers, unknown fields kept, missing fields → ""', async () => {
    const cdr = sampleCdr({
      how_many_message_parts: '2',
      message_length: 160,
      price: 0.075,
      brand_new_field: { x: 1 },
    });
    delete cdr.network_name;
    delete cdr.bulk_campaign_id;
    const body = samplePage([cdr], { page_size: '25', page: '3', shiny: true });
    (body._embedded as Record<string, unknown>).total_found = '80';
    const { c } = client([json(body)]);
    const page = await c.queryTransactions(TOKEN, query);
    expect(page.page_size).toBe(25);
    expect(page.page).toBe(3);
    expect(page._embedded.total_found).toBe(80);
    expect((page as Record<string, unknown>).shiny).toBe(true);
    const row = page._embedded.cdrs[0]!;
    expect(row.how_many_message_parts).toBe(2);
    expect(row.message_length).toBe('160');
    expect(row.price).toBe('0.075');
    expect(row.network_name).toBe('');
    expect(row.bulk_campaign_id).toBe('');
    expect((row as Record<string, unknown>).brand_new_field).toEqual({ x: 1 });
  });

  it('a page without links or cdrs still parses', async () => {
    const { c } = client([json({ page_size: 25, page: 1, _embedded: { total_found: 0 } })]);
    const page = await c.queryTransactions(TOKEN, query);
    expect(page._embedded.cdrs).toEqual([]);
    expect(page._links).toEqual({});
  });

  it('refuses without a call: no token, a token a header cannot carry, a non-integer page', async () => {
    const { c, calls } = client([json(samplePage())]);
    expect((await failure(c.queryTransactions('', query))).kind).toBe('unauthorized');
    const bad = await failure(c.queryTransactions(`${TOKEN}\n`, query));
    expect(bad.kind).toBe('unauthorized');
    expect(bad.message).not.toContain(TOKEN);
    expect((await failure(c.queryTransactions(TOKEN, { ...query, page: Number.NaN }))).kind).toBe('bad_request');
    expect(calls).toHaveLength(0);
  });
});

describe('getTransaction', () => {
  const trx = '0a1b2c3d4e5f60718293a4b5c6d7e8f9';

  it('GETs the detail path with the same headers, tz and enterprise-id when given', async () => {
    const { c, calls } = client([json(sampleCdr())]);
    const cdr = await c.getTransaction(TOKEN, trx, { tz: 'JST', enterpriseId: 'ent-sakura' });
    expect(cdr.trx_id).toBe(trx);
    expect(calls[0]!.url).toBe(
      `${BASE}/cdr/v1/report/cdr/sms/transaction-history/mt/${trx}?enterprise-id=ent-sakura&tz=JST`,
    );
    expect(calls[0]!.headers).toEqual({
      authorization: `Bearer ${TOKEN}`,
      accept: 'application/json',
      'content-type': 'application/json; charset=UTF-8',
    });
  });

  it('without options: no query string; the id is path-encoded', async () => {
    const { c, calls } = client([json(sampleCdr())]);
    await c.getTransaction(TOKEN, 'a/b?c');
    expect(calls[0]!.url).toBe(`${BASE}/cdr/v1/report/cdr/sms/transaction-history/mt/a%2Fb%3Fc`);
  });

  it('accepts a CDR wrapped in a result page', async () => {
    const { c } = client([json(samplePage([sampleCdr()]))]);
    expect((await c.getTransaction(TOKEN, trx)).trx_id).toBe(trx);
  });

  it('an empty wrapping page is malformed; 404 is not_found', async () => {
    const { c } = client([json(samplePage([])), json({ message: 'No such transaction' }, { status: 404 })]);
    expect((await failure(c.getTransaction(TOKEN, trx))).kind).toBe('malformed');
    const err = await failure(c.getTransaction(TOKEN, trx));
    expect(err.kind).toBe('not_found');
    expect(err.upstreamMessage).toBe('No such transaction');
  });
});

describe('status → kind', () => {
  const cases: [number, UpstreamErrorKind, boolean][] = [
    [400, 'bad_request', false],
    [401, 'unauthorized', false],
    [403, 'forbidden', false],
    [404, 'not_found', false],
    [405, 'bad_request', false],
    [408, 'timeout', true],
    [418, 'bad_request', false],
    [429, 'rate_limited', true],
    [500, 'unavailable', true],
    [501, 'unavailable', true],
    [502, 'unavailable', true],
    [503, 'unavailable', true],
    [504, 'unavailable', true],
    [302, 'malformed', false],
  ];
  for (const [status, kind, retryable] of cases) {
    it(`${status} → ${kind}`, async () => {
      const headers: Record<string, string> = status === 302 ? { location: 'https://elsewhere.test/' } : {};
      const { c } = client([text('nope', status, 'text/plain', headers)]);
      const err = await failure(c.queryTransactions(TOKEN, query));
      expect(err.kind).toBe(kind);
      expect(err.status).toBe(status);
      expect(isRetryable(err)).toBe(retryable);
      expect(err.message).toContain(String(status));
      expect(err.message).toContain('/cdr/v1/report/query/sms/transaction-history/mt');
      // The path only: filters (a phone number in `da`) stay out of messages.
      expect(err.message).not.toContain('date-from');
    });
  }
});

describe('Retry-After', () => {
  it('seconds → ms on 429', async () => {
    const { c } = client([text('slow down', 429, 'text/plain', { 'retry-after': '120' })]);
    const err = await failure(c.queryTransactions(TOKEN, query));
    expect(err).toMatchObject({ kind: 'rate_limited', retryAfterMs: 120_000, upstreamMessage: 'slow down' });
  });

  it('a 429 whose body cannot be read is still a 429, with its wait; a 200 whose body breaks is not', async () => {
    const broken =
      (status: number, headers: Record<string, string> = {}) =>
      () =>
        new Response(new ReadableStream({ start: (c) => c.error(new Error('incorrect header check')) }), {
          status,
          headers,
        });
    const limited = await failure(client([broken(429, { 'retry-after': '120' })]).c.queryTransactions(TOKEN, query));
    expect(limited).toMatchObject({ kind: 'rate_limited', status: 429, retryAfterMs: 120_000 });
    const ok = await failure(client([broken(200)]).c.queryTransactions(TOKEN, query));
    expect(ok).toMatchObject({ kind: 'network' });
    expect(ok.message).toMatch(/broke while the answer was being read/);
  });

  it('an HTTP-date → ms from now, on 503 too', async () => {
    const at = new Date(NOW + 90_000).toUTCString();
    const { c } = client([text('maintenance', 503, 'text/plain', { 'retry-after': at })]);
    const err = await failure(c.queryTransactions(TOKEN, query));
    expect(err).toMatchObject({ kind: 'unavailable', retryAfterMs: 90_000 });
  });

  it('absent or unreadable → undefined', async () => {
    for (const headers of [{}, { 'retry-after': 'later' }, { 'retry-after': '-5' }] as Record<string, string>[]) {
      const { c } = client([text('x', 429, 'text/plain', headers)]);
      const err = await failure(c.queryTransactions(TOKEN, query));
      expect(err.retryAfterMs).toBeUndefined();
      expect('retryAfterMs' in err).toBe(false);
    }
  });
});

describe('upstream messages', () => {
  const cases: [string, Response, string | undefined][] = [
    ['JSON message', json({ message: 'date-to is required' }, { status: 400 }), 'date-to is required'],
    ['JSON error', json({ error: 'Bad Request', status: 400 }, { status: 400 }), 'Bad Request'],
    [
      'JSON error object',
      json({ error: { code: 'E1', message: 'range too wide' } }, { status: 400 }),
      'range too wide',
    ],
    ['JSON detail', json({ title: 'Bad', detail: 'page must be 1..1000' }, { status: 400 }), 'page must be 1..1000'],
    [
      'JSON errors[]',
      json({ errors: ['date-from is required', 'date-to is required'] }, { status: 400 }),
      'date-from is required; date-to is required',
    ],
    ['JSON errors{}', json({ errors: { 'date-to': ['too far'] } }, { status: 400 }), 'date-to: too far'],
    ['plain text', text('  Bad\n request  ', 400), 'Bad request'],
    [
      'HTML title',
      text(
        '<!DOCTYPE html><html><head><title>503 Service Temporarily Unavailable</title></head><body>x</body></html>',
        503,
        'text/html',
      ),
      '503 Service Temporarily Unavailable',
    ],
    ['empty body', text('', 500), undefined],
    ['JSON without a message', json({ code: 17 }, { status: 400 }), undefined],
  ];
  for (const [name, res, expected] of cases) {
    it(name, async () => {
      const { c } = client([res]);
      const err = await failure(c.queryTransactions(TOKEN, query));
      expect(err.upstreamMessage).toBe(expected);
      if (expected) expect(err.message).toContain(expected);
    });
  }

  it('is cut to 300 characters', async () => {
    const { c } = client([text('x'.repeat(5000), 400)]);
    const err = await failure(c.queryTransactions(TOKEN, query));
    expect(err.upstreamMessage!.length).toBeLessThanOrEqual(300);
    expect(err.message.length).toBeLessThan(500);
  });
});

describe('timeouts and aborts', () => {
  const never = () => new Promise<Response>(() => undefined);

  it('no answer within timeoutMs → timeout (even from a fetch that ignores its signal)', async () => {
    const { c } = client([never], { timeoutMs: 50 });
    const err = await failure(c.queryTransactions(TOKEN, query));
    expect(err.kind).toBe('timeout');
    expect(isRetryable(err)).toBe(true);
    expect(err.message).toContain('50 ms');
  });

  it('no answer within timeoutMs → timeout, even when the caller passes a signal of its own that never aborts', async () => {
    const honouring = (call: { signal: AbortSignal | undefined }) =>
      new Promise<Response>((_, reject) => call.signal!.addEventListener('abort', () => reject(call.signal!.reason)));
    const { c } = client([honouring], { timeoutMs: 50 });
    const err = await failure(c.queryTransactions(TOKEN, query, new AbortController().signal));
    expect(err.kind).toBe('timeout');
  });

  it('a fetch that honours its signal → timeout too', async () => {
    const honouring = (call: { signal: AbortSignal | undefined }) =>
      new Promise<Response>((_, reject) => call.signal!.addEventListener('abort', () => reject(call.signal!.reason)));
    const { c } = client([honouring], { timeoutMs: 50 });
    expect((await failure(c.queryTransactions(TOKEN, query))).kind).toBe('timeout');
  });

  it('a body that stalls after the headers → timeout', async () => {
    const stalled = () =>
      new Response(new ReadableStream({ start: (ctl) => ctl.enqueue(new TextEncoder().encode('{"page_size":')) }), {
        status: 200,
      });
    const { c } = client([stalled], { timeoutMs: 50 });
    expect((await failure(c.queryTransactions(TOKEN, query))).kind).toBe('timeout');
  });

  it('a caller abort is the caller’s AbortError, not a timeout', async () => {
    const { c } = client([never], { timeoutMs: 5_000 });
    const ctl = new AbortController();
    const p = c.queryTransactions(TOKEN, query, ctl.signal);
    setTimeout(() => ctl.abort(), 20);
    const err = await p.catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(UpstreamError);
    expect((err as Error).name).toBe('AbortError');
  });

  it('an already aborted signal sends nothing', async () => {
    const { c, calls } = client([json(samplePage())]);
    const reason = new Error('gone');
    await expect(c.queryTransactions(TOKEN, query, AbortSignal.abort(reason))).rejects.toBe(reason);
    expect(calls).toHaveLength(0);
  });

  it('the timeout signal is handed to fetch', async () => {
    const { c, calls } = client([json(samplePage())]);
    await c.queryTransactions(TOKEN, query);
    expect(calls[0]!.signal).toBeInstanceOf(AbortSignal);
  });
});

describe('network failures', () => {
  it('fetch rejecting → network, with the error code', async () => {
    const refuse = () =>
      Promise.reject(
        new TypeError('fetch failed', { cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }) }),
      );
    const { c } = client([refuse]);
    const err = await failure(c.queryTransactions(TOKEN, query));
    expect(err.kind).toBe('network');
    expect(err.message).toContain('ECONNREFUSED');
    expect(err.cause).toBeUndefined();
    expect(isRetryable(err)).toBe(true);
  });

  it('the body breaking off mid-read → network', async () => {
    const broken = () =>
      new Response(
        new ReadableStream({
          start(ctl) {
            ctl.enqueue(new TextEncoder().encode('{"page_size":25,'));
            ctl.error(new TypeError('terminated'));
          },
        }),
        { status: 200 },
      );
    const { c } = client([broken]);
    expect((await failure(c.queryTransactions(TOKEN, query))).kind).toBe('network');
  });
});

describe('malformed answers', () => {
  const cases: [string, Response, RegExp][] = [
    ['not JSON', text('<html><body>oops</body></html>', 200, 'text/html'), /not valid JSON/],
    ['truncated', json(JSON.stringify(samplePage()).slice(0, 200)), /not valid JSON.*truncated/],
    ['empty', text('', 200), /empty body/],
    ['wrong shape: no _embedded', json({ page_size: 25, page: 1 }), /_embedded/],
    [
      'wrong shape: bad total',
      json(samplePage(undefined, { _embedded: { total_found: 'many', cdrs: [] } })),
      /_embedded\.total_found/,
    ],
    ['wrong shape: cdr without trx_id', json(samplePage([sampleCdr({ trx_id: '' })])), /_embedded\.cdrs\.0\.trx_id/],
    ['wrong shape: an array', json([1, 2, 3]), /\(root\)/],
  ];
  for (const [name, res, pattern] of cases) {
    it(name, async () => {
      const { c } = client([res]);
      const err = await failure(c.queryTransactions(TOKEN, query));
      expect(err.kind).toBe('malformed');
      expect(err.status).toBe(200);
      expect(err.message).toMatch(pattern);
      expect(isRetryable(err)).toBe(false);
      // Which path failed, never the body itself.
      expect(err.message).not.toContain('819012345678');
      expect(err.message).not.toContain('oops');
      expect(err.message).not.toContain('NTT docomo');
    });
  }
});

describe('the token never leaks into an error', () => {
  const echo = `invalid token ${TOKEN} (Authorization: Bearer ${TOKEN})`;
  const answers: [string, Answer][] = [
    ['401 JSON echo', json({ message: echo }, { status: 401 })],
    ['400 text echo', text(echo, 400)],
    ['503 HTML echo', text(`<html><title>${echo}</title></html>`, 503, 'text/html')],
    ['500 statusText echo', new Response('x', { status: 500, statusText: `Bad ${TOKEN}` })],
    ['200 malformed echo', json(`{"jwt_token":"${TOKEN}"`)],
    ['200 wrong shape echo', json({ page: TOKEN, page_size: TOKEN })],
    [
      'network error echo',
      () => Promise.reject(new TypeError(`Headers.append: "Bearer ${TOKEN}" is an invalid header value.`)),
    ],
  ];
  for (const [name, answer] of answers) {
    it(name, async () => {
      const { c } = client([answer]);
      const err = await failure(c.queryTransactions(TOKEN, query));
      const everything = [
        err.message,
        err.upstreamMessage ?? '',
        String(err.stack),
        JSON.stringify(err),
        String(err.cause ?? ''),
      ].join('\n');
      expect(everything).not.toContain(TOKEN);
      // Not even its signature on its own.
      expect(everything).not.toContain(TOKEN.split('.')[2]);
    });
  }

  it('nor in the detail call', async () => {
    const { c } = client([json({ message: echo }, { status: 403 })]);
    const err = await failure(c.getTransaction(TOKEN, '0a1b2c3d4e5f60718293a4b5c6d7e8f9'));
    expect(err.kind).toBe('forbidden');
    expect(`${err.message} ${err.upstreamMessage}`).not.toContain(TOKEN);
  });

  it('an opaque (non-JWT) token is blanked too', async () => {
    const opaque = 'tok_abc';
    const { c } = client([json({ message: `token ${opaque} expired` }, { status: 401 })]);
    const err = await failure(c.queryTransactions(opaque, query));
    expect(`${err.message} ${err.upstreamMessage}`).not.toContain(opaque);
    expect(err.upstreamMessage).toContain('expired');
  });
});
