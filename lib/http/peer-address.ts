import 'server-only';
/**
 * The TCP peer's address, for route handlers under `next start`. A route handler gets a web Request
 * and no socket (NextRequest's `ip` was removed in Next.js 15), and `next start` writes the peer's
 * address into X-Forwarded-For only when the request brought none (`??=` in Next's base server): a
 * client that sends its own X-Forwarded-For chooses what a handler reads there.
 *
 * So the startup hook (instrumentation.ts) stamps every request, as Node's HTTP server hands it
 * over, with the peer's address and a mark drawn at random for this process. A stamp without the
 * mark is not ours (a client sent the header, or the request came in before the hook was in
 * place) and reads as "unknown". The mark lives on `globalThis`: Next.js bundles the startup hook
 * and each route apart, and they share only the process.
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';

export const PEER_HEADER = 'x-dashboard-peer';

const MARK_KEY = Symbol.for('sms-dashboard.peer-mark');
const holder = globalThis as unknown as { [MARK_KEY]?: string };

/** Stamps every request this process's HTTP servers receive from now on. Idempotent. */
export function installPeerStamp(): void {
  if (holder[MARK_KEY]) return;
  const mark = randomBytes(18).toString('base64url');
  holder[MARK_KEY] = mark;
  const emit = http.Server.prototype.emit as (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;
  http.Server.prototype.emit = function stampPeer(
    this: http.Server,
    event: string | symbol,
    ...args: unknown[]
  ): boolean {
    if (event === 'request') {
      const req = args[0] as http.IncomingMessage;
      // Overwritten whatever the client sent under this name.
      req.headers[PEER_HEADER] = `${mark} ${req.socket?.remoteAddress ?? ''}`;
    }
    return emit.apply(this, [event, ...args]);
  } as typeof http.Server.prototype.emit;
}

/** The peer's address stamped on these headers by this process, or null. */
export function stampedPeer(headers: Headers): string | null {
  const mark = holder[MARK_KEY];
  const value = headers.get(PEER_HEADER);
  if (!mark || !value?.startsWith(`${mark} `)) return null;
  return value.slice(mark.length + 1) || null;
}
