/**
 * A small keep-alive HTTP client for benchmarks that need more than a closed loop: requests sent on
 * a schedule (open loop), or many distinct URLs shared by a few workers. Bodies are read and
 * dropped; only the status and the size come back.
 */
import http from 'node:http';

export interface Answer {
  status: number;
  bytes: number;
}

export function keepAliveClient(baseUrl: string, headers: Record<string, string>, maxSockets = 64) {
  const base = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  const once = (path: string, extra: Record<string, string>): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const req = http.request(
        { host: base.hostname, port: base.port, path, method: 'GET', agent, headers: { ...headers, ...extra } },
        (res) => {
          let bytes = 0;
          res.on('data', (chunk: Buffer) => (bytes += chunk.length));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
          res.on('error', reject);
        },
      );
      req.on('error', (err: NodeJS.ErrnoException) => {
        // The server closed an idle kept-alive connection just as it was reused: ask again (Node's advice).
        if (req.reusedSocket && err.code === 'ECONNRESET') once(path, extra).then(resolve, reject);
        else reject(err);
      });
      req.end();
    });
  return {
    get(path: string, extra: Record<string, string> = {}): Promise<Answer> {
      return once(path, extra);
    },
    close(): void {
      agent.destroy();
    },
  };
}
