/**
 * The peer stamp on a real Node HTTP server: what a handler reads is the socket's address, and a
 * client cannot write it, neither by sending the header itself nor by X-Forwarded-For.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { installPeerStamp, PEER_HEADER, stampedPeer } from './peer-address';

function serverSeeing(): Promise<{ url: string; seen: () => (string | null)[]; close: () => Promise<void> }> {
  const seen: (string | null)[] = [];
  const server = http.createServer((req, res) => {
    const headers = new Headers(Object.entries(req.headers).map(([k, v]): [string, string] => [k, String(v)]));
    seen.push(stampedPeer(headers));
    res.end('ok');
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}/`,
        seen: () => seen,
        close: () => new Promise((r) => server.close(() => r())),
      });
    }),
  );
}

describe('the peer stamp', () => {
  const servers: { close: () => Promise<void> }[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  it('reads as unknown before it is installed', async () => {
    const s = await serverSeeing();
    servers.push(s);
    await fetch(s.url, { headers: { [PEER_HEADER]: 'anything 203.0.113.66' } });
    expect(s.seen()).toEqual([null]);
  });

  it('gives the socket peer once installed, whatever the client sends', async () => {
    installPeerStamp();
    installPeerStamp();
    const s = await serverSeeing();
    servers.push(s);
    await fetch(s.url);
    await fetch(s.url, { headers: { [PEER_HEADER]: 'forged 203.0.113.66', 'X-Forwarded-For': '203.0.113.66' } });
    expect(s.seen()).toEqual(['127.0.0.1', '127.0.0.1']);
  });
});
