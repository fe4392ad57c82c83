import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeTransport, nodeTransport, type TransportRequest } from './node-transport';

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
  nodeTransport(`${base}${path}`, { method: 'GET', headers: {}, signal: AbortSignal.timeout(5_000), redirect: 'manual', ...extra });

const PAGE = JSON.stringify({ _embedded: { cdrs: [{ message: 'こんにちは、世界 — ok' }], total_found: 1 } });

describe('nodeTransport', () => {
  it('reads a compressed answer in each encoding it asks for, and a plain one', async () => {
    const encoders: Record<string, (b: Buffer) => Buffer> = { gzip: zlib.gzipSync, deflate: zlib.deflateSync, br: zlib.brotliCompressSync, identity: (b) => b };
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
    const send = (path: string) => transport(`${base}${path}`, { method: 'GET', headers: {}, signal: AbortSignal.timeout(5_000), redirect: 'manual' });
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

  it('rejects a body cut short by a closed connection, and an encoding it cannot read', async () => {
    answer = (_req, res) => {
      res.writeHead(200, { 'Content-Length': '100' });
      res.write('{"short":');
      setTimeout(() => res.socket?.destroy(), 20);
    };
    await expect((await get('/cut')).text()).rejects.toThrow();

    answer = (_req, res) => {
      res.writeHead(200, { 'Content-Encoding': 'zstd' });
      res.end('whatever');
    };
    await expect((await get('/zstd')).text()).rejects.toThrow(/encoding this client cannot read \(zstd\)/);
  });

  it('refuses a scheme other than http and https, sending nothing', async () => {
    await expect(nodeTransport('ftp://127.0.0.1/x', { method: 'GET', headers: {}, signal: AbortSignal.timeout(1_000), redirect: 'manual' })).rejects.toThrow(/only http and https/);
  });
});
