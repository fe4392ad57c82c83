import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BodyTooLargeError, createNodeTransport, nodeTransport, type TransportRequest } from './node-transport';

/** A real HTTP server on loopback whose answer each test sets; it counts connections and keeps the last request's headers. */
let server: http.Server;
let base: string;
let answer: (req: http.IncomingMessage, res: http.ServerResponse) => void = (_req, res) => res.end('');
let connections = 0;
let lastHeaders: http.IncomingHttpHeaders = {};

beforeAll(async () => {
  server = http.createServer((req, res) => {
    lastHeaders = req.headers;
    answer(req, res);
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const get = (path: string, extra: Partial<TransportRequest> = {}) =>
  nodeTransport(`${base}${path}`, {
    method: 'GET',
    headers: {},
    signal: AbortSignal.timeout(5_000),
    redirect: 'manual',
    ...extra,
  });

const PAGE = JSON.stringify({ _embedded: { cdrs: [{ message: 'こんにちは、世界 — ok' }], total_found: 1 } });

describe('nodeTransport', () => {
  it('reads a compressed answer in each encoding it asks for, and a plain one', async () => {
    const encoders: Record<string, (b: Buffer) => Buffer> = {
      gzip: zlib.gzipSync,
      deflate: zlib.deflateSync,
      br: zlib.brotliCompressSync,
      identity: (b) => b,
    };
    for (const [name, encode] of Object.entries(encoders)) {
      answer = (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': name });
        res.end(encode(Buffer.from(PAGE)));
      };
      const res = await get('/page');
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(PAGE);
    }
  });

  it('keeps a character split between two chunks whole, and drops a leading BOM', async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(PAGE)]);
    const cut = bytes.indexOf(Buffer.from('こ')) + 1; // inside the first Japanese character
    answer = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write(bytes.subarray(0, cut));
      setTimeout(() => res.end(bytes.subarray(cut)), 20);
    };
    expect(await (await get('/split')).text()).toBe(PAGE);
  });

  it('sends what fetch sent unless the caller names its own header', async () => {
    answer = (_req, res) => res.end('{}');
    await (await get('/h', { headers: { Authorization: 'Bearer t' } })).text();
    expect(lastHeaders['user-agent']).toBe('node');
    expect(lastHeaders['accept-encoding']).toBe('gzip, deflate');
    expect(lastHeaders.authorization).toBe('Bearer t');
    await (await get('/h', { headers: { 'User-Agent': 'sms-dashboard/0.1' } })).text();
    expect(lastHeaders['user-agent']).toBe('sms-dashboard/0.1');
  });

  it('answers a redirect as it is, without following it', async () => {
    answer = (req, res) => {
      if (req.url === '/moved') res.writeHead(302, 'Found', { Location: '/elsewhere' }).end('');
      else res.end('followed');
    };
    const res = await get('/moved');
    expect(res.status).toBe(302);
    expect(res.statusText).toBe('Found');
    expect(res.headers.get('Location')).toBe('/elsewhere');
    expect(await res.text()).toBe('');
  });

  it('gives headers by any case, several values joined', async () => {
    answer = (_req, res) => {
      res.setHeader('Retry-After', '30');
      res.setHeader('X-Many', ['a', 'b']);
      res.end('');
    };
    const res = await get('/headers');
    expect(res.headers.get('retry-after')).toBe('30');
    expect(res.headers.get('RETRY-AFTER')).toBe('30');
    expect(res.headers.get('x-many')).toBe('a, b');
    expect(res.headers.get('absent')).toBeNull();
  });

  it('uses one kept-alive connection for calls one after another', async () => {
    answer = (_req, res) => res.end('{}');
    await (await get('/warm')).text();
    const before = connections;
    for (let i = 0; i < 5; i++) await (await get('/again')).text();
    expect(connections).toBe(before);
  });

  it('closes a connection left unused for a while (one a NAT may have dropped), yet waits for a slow answer', async () => {
    const transport = createNodeTransport({ idleMs: 150 });
    const send = (path: string) =>
      transport(`${base}${path}`, {
        method: 'GET',
        headers: {},
        signal: AbortSignal.timeout(5_000),
        redirect: 'manual',
      });
    answer = (_req, res) => res.end('{}');
    await (await send('/first')).text();
    const before = connections;
    await new Promise((resolve) => setTimeout(resolve, 400));
    await (await send('/after-a-pause')).text();
    expect(connections).toBe(before + 1);

    answer = (_req, res) => setTimeout(() => res.end('{"late":true}'), 400);
    expect(await (await send('/slow-answer')).text()).toBe('{"late":true}');
  });

  it('rejects when the caller aborts before the answer, and while the body is read', async () => {
    answer = () => undefined; // never answers
    const early = new AbortController();
    const pending = get('/slow', { signal: early.signal });
    setTimeout(() => early.abort(new Error('stopped by the caller')), 20);
    await expect(pending).rejects.toThrow();

    answer = (_req, res) => {
      res.writeHead(200);
      res.write('{"half":');
    };
    const late = new AbortController();
    const res = await get('/half', { signal: late.signal });
    late.abort(new Error('stopped by the caller'));
    await expect(res.text()).rejects.toThrow();
  });

  it('rejects a body cut short by a closed connection', async () => {
    answer = (_req, res) => {
      res.writeHead(200, { 'Content-Length': '100' });
      res.write('{"short":');
      setTimeout(() => res.socket?.destroy(), 20);
    };
    await expect((await get('/cut')).text()).rejects.toThrow();
  });

  it('decodes as leniently as fetch: raw deflate, a gzip without its trailer or cut short, codings stacked, nothing to decode', async () => {
    const send = (encoding: string, body: Buffer, status = 200) => {
      answer = (_req, res) => {
        res.writeHead(status, { 'Content-Encoding': encoding, 'Content-Length': String(body.length) });
        res.end(body);
      };
    };
    const page = Buffer.from(PAGE);
    send('deflate', zlib.deflateRawSync(page));
    expect(await (await get('/raw-deflate')).text()).toBe(PAGE);
    const gzipped = zlib.gzipSync(page);
    send('gzip', gzipped.subarray(0, gzipped.length - 8));
    expect(await (await get('/no-trailer')).text()).toBe(PAGE);
    // Cut in half: what it holds, for the caller to find that it is not whole JSON.
    send('gzip', gzipped.subarray(0, Math.floor(gzipped.length / 2)));
    // (its last character may be cut in two: read as U+FFFD, as fetch reads it)
    const half = (await (await get('/half-gzip')).text()).replace(/\uFFFD$/, '');
    expect(half.length).toBeGreaterThan(0);
    expect(PAGE.startsWith(half)).toBe(true);
    expect(half.length).toBeLessThan(PAGE.length);
    send('gzip, br', zlib.brotliCompressSync(gzipped));
    expect(await (await get('/stacked')).text()).toBe(PAGE);
    // An error answer with no body, or a 204, labelled gzip: an empty text, and its status.
    send('gzip', Buffer.alloc(0), 429);
    const limited = await get('/empty-429');
    expect(limited.status).toBe(429);
    expect(await limited.text()).toBe('');
    send('gzip', Buffer.alloc(0), 204);
    expect(await (await get('/empty-204')).text()).toBe('');
    // A coding it does not know is left as it came (as fetch leaves it).
    send('zstd', Buffer.from('whatever'));
    expect(await (await get('/zstd')).text()).toBe('whatever');
  });

  it('refuses a scheme other than http and https, sending nothing', async () => {
    await expect(
      nodeTransport('ftp://127.0.0.1/x', {
        method: 'GET',
        headers: {},
        signal: AbortSignal.timeout(1_000),
        redirect: 'manual',
      }),
    ).rejects.toThrow(/only http and https/);
  });

  it('stops reading an answer past maxBodyBytes: declared, streamed without a length, or a small gzip that inflates past it', async () => {
    const limit = 64 * 1024;
    const big = Buffer.alloc(limit + 1, 0x61);
    const cases: Record<string, (res: http.ServerResponse) => void> = {
      declared: (res) => {
        res.writeHead(200, { 'Content-Length': String(big.length) });
        res.end(big);
      },
      chunked: (res) => {
        res.writeHead(200);
        res.write(big.subarray(0, limit / 2));
        setTimeout(() => res.end(big.subarray(limit / 2)), 10);
      },
      // About 100 bytes on the wire, 64 KiB + 1 once inflated.
      gzipBomb: (res) => {
        res.writeHead(200, { 'Content-Encoding': 'gzip' });
        res.end(zlib.gzipSync(big));
      },
    };
    for (const [name, send] of Object.entries(cases)) {
      answer = (_req, res) => send(res);
      const res = await get(`/${name}`, { maxBodyBytes: limit });
      await expect(res.text(), name).rejects.toBeInstanceOf(BodyTooLargeError);
    }
    // At the limit exactly, it is read.
    answer = (_req, res) => {
      res.writeHead(200, { 'Content-Encoding': 'gzip' });
      res.end(zlib.gzipSync(big.subarray(0, limit)));
    };
    expect((await (await get('/at-limit', { maxBodyBytes: limit })).text()).length).toBe(limit);
  });
});
