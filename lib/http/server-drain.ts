import 'server-only';
/**
 * Stopping the HTTP server the way a deploy expects: no new connection is taken, the requests in
 * flight are answered, idle kept-alive connections are closed as they fall idle, and whatever is
 * still open after the grace (a long download, a client that never reads) is cut.
 *
 * `next start` makes its server before the startup hook runs and does not hand it out, so the hook
 * notes every server this process's HTTP servers emit a connection or a request on, and counts the
 * requests in flight. Kept on `globalThis`: the startup hook's bundle installs it, the stop reads it.
 */
import http from 'node:http';

interface Tracking {
  servers: Set<http.Server>;
  inFlight: number;
}

const TRACKING_KEY = Symbol.for('sms-dashboard.server-drain');
const holder = globalThis as unknown as { [TRACKING_KEY]?: Tracking };

/** From now on, notes this process's HTTP servers and counts their requests in flight. Idempotent. */
export function installServerTracking(): void {
  if (holder[TRACKING_KEY]) return;
  const tracking: Tracking = { servers: new Set(), inFlight: 0 };
  holder[TRACKING_KEY] = tracking;
  const emit = http.Server.prototype.emit as (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;
  http.Server.prototype.emit = function tracked(
    this: http.Server,
    event: string | symbol,
    ...args: unknown[]
  ): boolean {
    if (event === 'connection' || event === 'request') tracking.servers.add(this);
    if (event === 'request') {
      tracking.inFlight += 1;
      (args[1] as http.ServerResponse).once('close', () => {
        tracking.inFlight -= 1;
      });
    }
    return emit.apply(this, [event, ...args]);
  } as typeof http.Server.prototype.emit;
}

/** Requests being answered now by this process's servers. */
export function requestsInFlight(): number {
  return holder[TRACKING_KEY]?.inFlight ?? 0;
}

const POLL_MS = 50;

/**
 * Closes every tracked server to new connections and waits for the requests in flight, at most
 * `graceMs`; then cuts what is still open. Resolves with how many requests were cut.
 */
export async function drainServers(graceMs: number): Promise<number> {
  const tracking = holder[TRACKING_KEY];
  if (!tracking) return 0;
  for (const server of tracking.servers) server.close();
  const until = performance.now() + graceMs;
  for (;;) {
    // A kept-alive connection whose answer just ended is idle now: closed, so its client reconnects elsewhere.
    for (const server of tracking.servers) server.closeIdleConnections();
    if (tracking.inFlight <= 0 || performance.now() >= until) break;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  const cut = Math.max(0, tracking.inFlight);
  for (const server of tracking.servers) server.closeAllConnections();
  return cut;
}
