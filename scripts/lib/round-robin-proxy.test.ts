import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startRoundRobinProxy, type RunningProxy } from './round-robin-proxy';

/** A stand-in instance: answers its name, the Host it saw, and the body it was sent. */
function instance(name: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ name, host: req.headers.host, body, path: req.url }));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () => new Promise((done) => server.close(() => done())),
      }),
    ),
  );
}

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

async function setup() {
  const a = await instance('a');
  const b = await instance('b');
  open.push(a, b);
  const proxy: RunningProxy = await startRoundRobinProxy({
    port: 0,
    host: '127.0.0.1',
    targets: [
      { name: 'one', url: a.url },
      { name: 'two', url: b.url },
    ],
  });
  open.unshift(proxy);
  return { a, b, proxy };
}

describe('the demo cluster’s round-robin proxy', () => {
  it('sends each request to the next instance in turn, keeping the path, the Host and the body', async () => {
    const { proxy } = await setup();
    const answers = [];
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${proxy.url}/api/quota?x=${i}`);
      answers.push({
        by: res.headers.get('x-dashboard-instance'),
        ...((await res.json()) as { name: string; host: string; path: string }),
      });
    }
    expect(answers.map((a) => [a.by, a.name])).toEqual([
      ['one', 'a'],
      ['two', 'b'],
      ['one', 'a'],
      ['two', 'b'],
    ]);
    expect(answers[2]).toMatchObject({ host: new URL(proxy.url).host, path: '/api/quota?x=2' });
    const posted = (await (await fetch(`${proxy.url}/api/exports`, { method: 'POST', body: '{"a":1}' })).json()) as {
      body: string;
    };
    expect(posted.body).toBe('{"a":1}');
  });

  it('serves from the instance still up when the other stops', async () => {
    const { b, proxy } = await setup();
    await b.close();
    open.splice(open.indexOf(b), 1);
    const names = [];
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${proxy.url}/`, i % 2 ? { method: 'POST', body: `form ${i}` } : {});
      const answer = (await res.json()) as { name: string; body: string };
      names.push(answer.name);
      if (i % 2) expect(answer.body).toBe(`form ${i}`);
    }
    // A sign-in's POST too: a refused connection reached nothing, so it goes to the next instance.
    expect(names).toEqual(['a', 'a', 'a', 'a']);
  });
});
