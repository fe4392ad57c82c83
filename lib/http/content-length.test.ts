import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CONTENT_LENGTH_HEADER, installContentLength } from './content-length';

let server: http.Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A server that streams `chunks`, naming their length the way a route handler does (or not). */
async function serve(chunks: string[], named: boolean): Promise<string> {
  server = http.createServer((_req, res) => {
    if (named) res.appendHeader(CONTENT_LENGTH_HEADER, String(chunks.join('').length));
    res.appendHeader('content-type', 'text/csv');
    for (const c of chunks) res.write(c);
    res.end();
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

describe("a handler's answer length", () => {
  it('reaches the client as Content-Length, the body streamed as before', async () => {
    installContentLength();
    installContentLength();
    const res = await fetch(await serve(['trx_id\r\n', 'a'.repeat(5000), '\r\n'], true));
    expect(res.headers.get('content-length')).toBe('5010');
    expect(res.headers.get('transfer-encoding')).toBeNull();
    expect(res.headers.has(CONTENT_LENGTH_HEADER)).toBe(false);
    expect((await res.text()).length).toBe(5010);
  });

  it('leaves an answer without it chunked', async () => {
    installContentLength();
    const res = await fetch(await serve(['a', 'b'], false));
    expect(res.headers.get('content-length')).toBeNull();
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
  });
});
