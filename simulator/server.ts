/**
 * The simulator as a library: generates the world, serves it over node:http, hands tests the levers.
 * Other people's tests start it in-process with `startSimulator({ port: 0 })` and talk to it over
 * real HTTP, exactly as the dashboard talks to the real upstream.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { findCredential } from './accounts';
import { ADMIN_PREFIX, handleAdmin } from './admin';
import { DETAIL_PREFIX, QUERY_PATH, TOKEN_PATH, handleApi, handleToken, type ApiContext } from './api';
import { Dataset } from './dataset';
import { FaultState, type FaultSpec } from './faults';
import { generate } from './generate';
import { clientIp, errorBody, sendJson } from './http';
import { DEFAULT_LIMITS, RateLimiter, type Limits } from './limits';
import { SecretOverrides } from './secrets';
import type { PageSizeLimit, PageSizeOver } from './params';
import { StatsRecorder, type SimStats } from './stats';
import { TokenIssuer } from './tokens';

export type { SimStats, AccountStats, TokenCounts, UnknownKeyStats } from './stats';
export type { FaultSpec } from './faults';
export type { Limits } from './limits';
export { Dataset } from './dataset';
export { CREDENTIALS, ENTERPRISES } from './accounts';

export interface SimulatorOptions {
  /** 0 = any free port. Default 4010. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  seed?: number;
  days?: number;
  perDay?: number;
  /** The clock (ms); default Date.now. Lets tests pin time. */
  now?: () => number;
  /** Default 900 (15 minutes, as documented upstream). */
  tokenTtlSeconds?: number;
  /** Default 100 (the top of the seed's recommended 25–100). */
  maxPageSize?: number;
  /** Above maxPageSize: refuse (400, the default) or clamp (serve maxPageSize, saying so). */
  pageSizeOver?: PageSizeOver;
  /** false = no limits at all; default 1 in flight per account and per IP, 3/minute, 10/hour, 100/day per account. */
  limits?: Limits | false;
  /** Added delay per request (token, query, detail), ms. */
  latencyMs?: number;
  /** Added delay on the token endpoint only (on top of latencyMs), ms: a real one takes ~200 ms. */
  tokenLatencyMs?: number;
  /** Include message_body (and unencrypted_message_body) in records; default true. */
  includeBodies?: boolean;
  /** No request log on stdout. */
  quiet?: boolean;
}

export interface RunningSimulator {
  url: string;
  port: number;
  close(): Promise<void>;
  stats(): SimStats;
  /** Zeroes the stats and forgets the limit windows. */
  resetStats(): void;
  setFaults(f: FaultSpec): void;
  clearFaults(): void;
  /** Changes the largest page-size served, or what happens above it, from the next request on (an upstream that changes its mind). */
  setPageSizeLimit(limit: Partial<PageSizeLimit>): void;
  /** Rotates an account's secret (false: no such account); `resetSecrets` puts every one back. */
  setSecret(apiKey: string, secret: string): boolean;
  resetSecrets(): void;
  /** Lifts the limits (false) or puts them back with empty windows (true); false without limits. */
  setLimits(enabled: boolean): boolean;
  dataset: Dataset;
}

export const SIMULATOR_DEFAULTS = {
  port: 4010,
  host: '127.0.0.1',
  seed: 42,
  days: 90,
  perDay: 3000,
  tokenTtlSeconds: 900,
  maxPageSize: 100,
  pageSizeOver: 'refuse' as PageSizeOver,
  latencyMs: 0,
  tokenLatencyMs: 0,
} as const;

function route(path: string): 'token' | 'query' | 'detail' | 'admin' | null {
  if (path === TOKEN_PATH) return 'token';
  if (path === QUERY_PATH) return 'query';
  if (
    path.startsWith(DETAIL_PREFIX) &&
    path.length > DETAIL_PREFIX.length &&
    !path.slice(DETAIL_PREFIX.length).includes('/')
  )
    return 'detail';
  if (path.startsWith(ADMIN_PREFIX)) return 'admin';
  return null;
}

export async function startSimulator(opts: SimulatorOptions = {}): Promise<RunningSimulator> {
  const o = {
    ...SIMULATOR_DEFAULTS,
    ...Object.fromEntries(Object.entries(opts).filter(([, v]) => v !== undefined)),
  } as typeof SIMULATOR_DEFAULTS & SimulatorOptions;
  const now = o.now ?? Date.now;
  const generated = generate({ seed: o.seed, days: o.days, perDay: o.perDay, now: now() });
  const dataset = new Dataset(generated, now, o.includeBodies ?? true);
  const tokens = new TokenIssuer(o.seed, o.tokenTtlSeconds, now);
  const limits = o.limits === undefined ? DEFAULT_LIMITS : o.limits;
  const stats = new StatsRecorder();
  const faults = new FaultState();
  const limiter = limits ? new RateLimiter(limits, now) : null;

  const secrets = new SecretOverrides();
  const api: ApiContext = {
    dataset,
    tokens,
    limiter,
    stats,
    faults,
    now,
    pageSize: { max: o.maxPageSize, over: o.pageSizeOver },
    latencyMs: o.latencyMs,
    tokenLatencyMs: o.tokenLatencyMs,
    secrets,
  };
  const setFaults = (f: FaultSpec) => {
    if (f.expireTokens) tokens.revokeAll();
    faults.set(f);
  };
  const resetStats = () => {
    stats.reset();
    limiter?.resetWindows();
  };
  const setPageSizeLimit = (limit: Partial<PageSizeLimit>) => {
    if (limit.max !== undefined) api.pageSize.max = limit.max;
    if (limit.over !== undefined) api.pageSize.over = limit.over;
  };
  const admin = {
    pageSizeLimit: () => ({ ...api.pageSize }),
    setPageSizeLimit,
    stats: () => stats.snapshot(),
    resetStats,
    setFaults,
    clearFaults: () => faults.clear(),
    currentFaults: () => faults.current(),
    setSecret: (apiKey: string, secret: string) => {
      const credential = findCredential(apiKey);
      if (credential) secrets.set(credential.apiKey, secret);
      return credential !== undefined;
    },
    resetSecrets: () => secrets.clear(),
    setLimits: (enabled: boolean) => {
      if (!limiter) return false;
      if (enabled && api.limiter === null) limiter.resetWindows();
      api.limiter = enabled ? limiter : null;
      return true;
    },
  };

  const log = (req: IncomingMessage, path: string, status: number | null, started: number) => {
    if (o.quiet) return;
    // The path only: query strings carry phone numbers (da) and tokens never appear in URLs anyway.
    process.stdout.write(
      `${new Date().toISOString()} ${req.method} ${path} ${status ?? '-'} ${Math.round(performance.now() - started)}ms ${clientIp(req)}\n`,
    );
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://simulator.invalid');
    } catch {
      sendJson(res, 400, errorBody(400, 'unreadable request target'));
      return;
    }
    const path = url.pathname;
    const kind = route(path);
    let status: number | null;
    if (kind === null) {
      sendJson(res, 404, errorBody(404, `no such resource: ${path.slice(0, 200)}`));
      status = 404;
    } else if (kind === 'admin') {
      status = await handleAdmin(admin, req, res, path);
    } else if (req.method !== 'GET') {
      sendJson(res, 405, errorBody(405, `${req.method} is not allowed on ${path}; use GET`), { Allow: 'GET' });
      status = 405;
    } else if (kind === 'token') {
      status = await handleToken(api, req, res);
    } else {
      status = await handleApi(api, kind, req, res, url);
    }
    if (kind !== 'admin') log(req, path, status, started);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      process.stderr.write(`simulator: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      sendJson(res, 500, errorBody(500, 'simulator error'));
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const hostForUrl = o.host.includes(':') ? `[${o.host}]` : o.host;

  return {
    url: `http://${hostForUrl}:${port}`,
    port,
    dataset,
    stats: admin.stats,
    resetStats,
    setFaults,
    clearFaults: admin.clearFaults,
    setSecret: admin.setSecret,
    resetSecrets: admin.resetSecrets,
    setPageSizeLimit,
    setLimits: admin.setLimits,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        // Idle keep-alive sockets and hung requests (fault `hang`) would otherwise hold close() open.
        server.closeAllConnections();
      }),
  };
}
