/**
 * A tiny round-robin HTTP proxy (node:http) for `npm run demo:cluster`: one port in front of
 * several instances of the dashboard, each request to the next instance in turn, as a load
 * balancer without sticky sessions would do — which is the point: any instance must serve any
 * request. Streams both ways (CSV downloads, server-sent bodies), keeps the Host header (next-auth
 * and the cross-site check read it), and says which instance answered (`X-Dashboard-Instance`).
 *
 * An instance that refuses connections (stopped, restarting) is skipped for a few seconds, and a
 * request it refused goes to the next instance instead, so stopping one instance is invisible to a
 * person browsing. A demo tool, not a production balancer.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxyTarget {
  name: string;
  /** http://host:port of the instance. */
  url: string;
}

export interface RunningProxy {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** How long an instance that refused a connection is left out. */
const DOWN_FOR_MS = 5_000;
/** The largest request body passed on (read whole before it is sent). */
const MAX_BODY_BYTES = 1024 * 1024;

export function startRoundRobinProxy(opts: {
  port: number;
  host?: string;
  targets: readonly ProxyTarget[];
}): Promise<RunningProxy> {
  const { targets } = opts;
  if (targets.length === 0) throw new Error('the proxy needs at least one target');
  const downUntil = new Map<string, number>();
  let next = 0;

  /** The targets in the order to try for one request: the next in turn first, instances down last. */
  const turn = (): ProxyTarget[] => {
    const start = next;
    next = (next + 1) % targets.length;
    const ordered = targets.map((_, i) => targets[(start + i) % targets.length]!);
    const now = Date.now();
    return [
      ...ordered.filter((t) => (downUntil.get(t.name) ?? 0) <= now),
      ...ordered.filter((t) => (downUntil.get(t.name) ?? 0) > now),
    ];
  };

  const server = http.createServer((req, res) => {
    const bodyless = req.method === 'GET' || req.method === 'HEAD';
    const candidates = turn();
    const attempt = (i: number, body: Buffer | null) => {
      const target = candidates[i]!;
      const url = new URL(target.url);
      const forwardedFor = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');
      const upstream = http.request(
        {
          host: url.hostname,
          port: url.port,
          method: req.method,
          path: req.url,
          headers: {
            ...req.headers,
            'x-forwarded-for': forwardedFor,
            'x-forwarded-proto': 'http',
            'x-forwarded-host': req.headers.host ?? '',
          },
        },
        (answer) => {
          downUntil.delete(target.name);
          res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'x-dashboard-instance': target.name });
          answer.pipe(res);
        },
      );
      upstream.on('error', (err: NodeJS.ErrnoException) => {
        const refused = err.code === 'ECONNREFUSED';
        if (refused || err.code === 'ECONNRESET') downUntil.set(target.name, Date.now() + DOWN_FOR_MS);
        // A refused connection reached nothing: any request may go to the next instance. A reset
        // one may have been served: only a request without a body (GET, HEAD) is sent again.
        const again =
          (refused || (err.code === 'ECONNRESET' && bodyless)) && !res.headersSent && i + 1 < candidates.length;
        if (again) return attempt(i + 1, body);
        if (!res.headersSent) {
          res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
          res.end(`No dashboard instance answered (${target.name}: ${err.code ?? err.message}).\n`);
        } else res.destroy(err);
      });
      // A person who goes away stops the request to the instance too.
      res.on('close', () => {
        if (!res.writableFinished) upstream.destroy();
      });
      upstream.end(body ?? undefined);
    };
    if (bodyless) return attempt(0, null);
    // Bodies are read whole first, so a request can go to another instance when one refuses it
    // (the dashboard's own bodies are at most 16 KiB; anything past MAX_BODY_BYTES is refused).
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        res.writeHead(413, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
        res.end('Request body too large for the demo proxy.\n');
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => {
      if (size <= MAX_BODY_BYTES) attempt(0, Buffer.concat(chunks));
    });
  });

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    // Without a host: every interface, as `next start` listens (a browser's "localhost" may be ::1).
    const onListening = () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://${opts.host ?? 'localhost'}:${port}`,
        port,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    };
    if (opts.host) server.listen(opts.port, opts.host, onListening);
    else server.listen(opts.port, onListening);
  });
}
