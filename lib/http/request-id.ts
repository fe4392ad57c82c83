import 'server-only';
/**
 * Every answer of this process carries `X-Request-Id`, and every log line written while the request
 * is served carries the same id (`requestId`), so an operator goes from a person's "it failed at
 * 10:42" to the lines of that one request.
 *
 * The id is made here (a random UUID), unless a reverse proxy this dashboard trusts
 * (TRUST_PROXY_HOPS ≥ 1, lib/http/client-address.ts) sent one: then its id is kept, so the proxy's
 * access log and ours name the request alike. Without a trusted proxy the header is the client's to
 * write and is never read. A proxy's id is kept only when it is short and plain (letters, digits,
 * `.`, `_`, `:`, `-`): it is written into log lines as it is.
 *
 * Installed by the startup hook on Node's HTTP server, as the request arrives, before Next.js sees
 * it: pages, route handlers, next-auth's routes and Next's own 404s all get it, and the log context
 * (lib/log.ts) follows the request through everything it awaits.
 */
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { withLogContext } from '../log';

export const REQUEST_ID_HEADER = 'x-request-id';

const PLAIN_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The id of a request: the trusted proxy's when there is one and it is plain, else a new one. */
export function requestIdOf(sent: string | string[] | undefined | null, trustedHops: number): string {
  const value = Array.isArray(sent) ? sent[0] : sent;
  if (trustedHops > 0 && value && PLAIN_ID.test(value)) return value;
  return randomUUID();
}

/** What the answer to one request was, once it is sent (or the client went away). */
export interface Answered {
  req: http.IncomingMessage;
  status: number;
  seconds: number;
}

export interface RequestIdOptions {
  trustProxyHops: number;
  /** Told of every answer (request durations, lib/metrics). */
  onAnswered?: (answered: Answered) => void;
}

const INSTALLED = Symbol.for('sms-dashboard.request-ids');
const holder = globalThis as unknown as { [INSTALLED]?: RequestIdOptions };

/**
 * From now on, every request this process's HTTP servers receive gets its id. Installed once; a
 * second call only replaces the options (tests).
 */
export function installRequestIds(options: RequestIdOptions): void {
  const installed = holder[INSTALLED] !== undefined;
  holder[INSTALLED] = options;
  if (installed) return;
  const emit = http.Server.prototype.emit as (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;
  http.Server.prototype.emit = function withRequestId(
    this: http.Server,
    event: string | symbol,
    ...args: unknown[]
  ): boolean {
    if (event !== 'request') return emit.apply(this, [event, ...args]);
    const req = args[0] as http.IncomingMessage;
    const res = args[1] as http.ServerResponse;
    const options = holder[INSTALLED] as RequestIdOptions;
    const id = requestIdOf(req.headers[REQUEST_ID_HEADER], options.trustProxyHops);
    // What a handler reads is the id the answer carries, never a client's.
    req.headers[REQUEST_ID_HEADER] = id;
    res.setHeader('X-Request-Id', id);
    const onAnswered = options.onAnswered;
    if (onAnswered) {
      const started = performance.now();
      res.once('close', () => {
        try {
          onAnswered({ req, status: res.statusCode, seconds: (performance.now() - started) / 1000 });
        } catch {
          // An observer must never take a request down.
        }
      });
    }
    return withLogContext({ requestId: id }, () => emit.apply(this, [event, ...args]));
  } as typeof http.Server.prototype.emit;
}
