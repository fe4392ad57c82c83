/**
 * Request ids on a real Node HTTP server: every answer carries one, every log line written while
 * serving it (after awaits too) carries the same, a client cannot choose it, and a trusted proxy can.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../log';
import { installRequestIds, requestIdOf, type Answered } from './request-id';

const lines: Record<string, unknown>[] = [];
const log = createLogger({ level: 'info', sink: (_level, line) => lines.push(JSON.parse(line) as never) });
const answered: Answered[] = [];

const server = http.createServer((req, res) => {
  log.info('test.arrived', { path: req.url });
  // A line after an await and a timer still belongs to the request.
  void new Promise((r) => setTimeout(r, 5)).then(() => {
    log.info('test.answered', { path: req.url });
    res.end(String(req.headers['x-request-id']));
  });
});

async function listen(): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('request ids', () => {
  it('makes an id for every answer and puts it on every log line of the request', async () => {
    installRequestIds({ trustProxyHops: 0, onAnswered: (a) => answered.push(a) });
    const url = await listen();
    const [a, b] = await Promise.all([fetch(`${url}/a`), fetch(`${url}/b`)]);
    const idA = a.headers.get('x-request-id');
    const idB = b.headers.get('x-request-id');
    expect(idA).toMatch(/^[0-9a-f-]{36}$/);
    expect(idB).toMatch(/^[0-9a-f-]{36}$/);
    expect(idA).not.toBe(idB);
    // The handler reads the same id the answer carries.
    expect(await a.text()).toBe(idA);
    await b.text();
    const of = (path: string) => lines.filter((l) => l.path === path).map((l) => l.requestId);
    expect(of('/a')).toEqual([idA, idA]);
    expect(of('/b')).toEqual([idB, idB]);
    expect(answered.map((x) => x.status)).toEqual([200, 200]);
    expect(answered.every((x) => x.seconds > 0 && x.seconds < 5)).toBe(true);
    // Outside a request, no id.
    log.info('test.outside');
    expect(lines.at(-1)?.requestId).toBeUndefined();
  });

  it('ignores a client’s id when no proxy is trusted, and keeps a trusted proxy’s plain one', async () => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    installRequestIds({ trustProxyHops: 0 });
    const untrusted = await fetch(`${url}/c`, { headers: { 'X-Request-Id': 'chosen-by-client' } });
    expect(untrusted.headers.get('x-request-id')).not.toBe('chosen-by-client');
    await untrusted.text();
    installRequestIds({ trustProxyHops: 1 });
    const trusted = await fetch(`${url}/d`, { headers: { 'X-Request-Id': 'a1b2c3d4e5f60718293a4b5c6d7e8f90' } });
    expect(trusted.headers.get('x-request-id')).toBe('a1b2c3d4e5f60718293a4b5c6d7e8f90');
    await trusted.text();
    expect(lines.filter((l) => l.path === '/d').map((l) => l.requestId)).toEqual([
      'a1b2c3d4e5f60718293a4b5c6d7e8f90',
      'a1b2c3d4e5f60718293a4b5c6d7e8f90',
    ]);
  });

  it('replaces an id that is not plain, even from a trusted proxy', () => {
    expect(requestIdOf('ok-id_1.2:3', 1)).toBe('ok-id_1.2:3');
    expect(requestIdOf('has space', 1)).not.toBe('has space');
    expect(requestIdOf('"},"level":"error', 1)).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdOf('x'.repeat(129), 1)).toHaveLength(36);
    expect(requestIdOf(['first', 'second'], 1)).toBe('first');
  });
});
