import 'server-only';
/**
 * What the Node.js server does when it starts (instrumentation.ts): stamps every request with its
 * TCP peer's address (lib/http/peer-address.ts: a route handler has no other trustworthy way to it
 * under `next start`) and its id (lib/http/request-id.ts, which every log line of the request
 * carries, and which times its answer for the metrics), lets a handler give its answer's length
 * (lib/http/content-length.ts), checks the configuration and opens the store, and starts the
 * background runners, so a restarted server resumes queued and running exports without waiting for
 * a request; a stop (SIGTERM) is bounded and lets the background calls in flight finish first
 * (./graceful-stop.ts).
 *
 * A server that cannot start its services (a wrong setting, no NEXTAUTH_SECRET in production, a
 * database it cannot reach, a data folder it cannot write or another process holds) stops here
 * with the reason, exit code 1: serving, it would answer every request 500 while a supervisor saw
 * a healthy process.
 */
import { authSecret } from '../auth/server';
import { configWarnings } from '../governor/server';
import { log } from '../log';
import { installContentLength } from '../http/content-length';
import { installPeerStamp } from '../http/peer-address';
import { installRequestIds } from '../http/request-id';
import { drainServers, installServerTracking } from '../http/server-drain';
import { observeHttpRequest } from '../metrics/server';
import { getConfig } from '../config';
import { installGracefulStop } from './graceful-stop';
import { getServices } from './services';

export async function startServer(): Promise<void> {
  installPeerStamp();
  installContentLength();
  installServerTracking();
  try {
    installRequestIds({
      trustProxyHops: getConfig().TRUST_PROXY_HOPS,
      onAnswered: ({ req, status, seconds }) => observeHttpRequest(req.url, status, seconds),
    });
    authSecret();
    const services = await getServices();
    for (const warning of configWarnings(services.config)) log.warn('config.warning', { warning });
    installGracefulStop({
      stopBackground: (graceMs) => services.stopBackground(graceMs),
      drainRequests: (graceMs) => drainServers(graceMs),
      close: () => services.close(),
      on: (signal, listener) => process.once(signal, listener),
      exit: (code) => process.exit(code),
      manual: Boolean(process.env.NEXT_MANUAL_SIG_HANDLE),
    });
  } catch (err) {
    console.error(`The dashboard cannot start: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
