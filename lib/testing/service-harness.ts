/**
 * Builds the server's real parts — upstream client, token keeper, governor, SQLite store,
 * transactions service — against a simulator started in-process on a free loopback port. For
 * integration tests and benchmarks that need the services without a Next.js server.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configSchema, type Config } from '../config';
import { Governor } from '../governor/governor';
import { TransactionsService } from '../server/transactions-service';
import { UpstreamGateway, type UpstreamAccount } from '../server/upstream-gateway';
import { createStore, type Store } from '../store';
import { createTokenKeeper, createUpstreamClient } from '../upstream';
import { CREDENTIALS } from '../../simulator/accounts';
import { startSimulator, type RunningSimulator, type SimulatorOptions } from '../../simulator/server';

export interface Harness {
  sim: RunningSimulator;
  store: Store;
  config: Config;
  governor: Governor;
  gateway: UpstreamGateway;
  service: TransactionsService;
  account(apiKey: string, enterpriseId?: string | null): UpstreamAccount;
  /** Query+detail requests the simulator has seen for an API key. */
  upstreamCalls(apiKey: string): number;
  close(): Promise<void>;
}

export async function startHarness(
  opts: { sim?: SimulatorOptions; env?: Record<string, string>; dataDir?: string; now?: () => number } = {},
): Promise<Harness> {
  const sim = await startSimulator({ port: 0, quiet: true, perDay: 400, days: 10, limits: false, ...opts.sim });
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'sms-dash-'));
  const config = { ...configSchema.parse({ UPSTREAM_BASE_URL: sim.url, DATA_DIR: dataDir, ...opts.env }), dataDir };
  const store = createStore(path.join(dataDir, 'dashboard.sqlite'));
  const now = opts.now ?? Date.now;
  const client = createUpstreamClient({ baseUrl: config.UPSTREAM_BASE_URL, timeoutMs: config.UPSTREAM_TIMEOUT_MS });
  const governor = new Governor({
    ledger: store.ledger,
    limits: { perMinute: config.UPSTREAM_LIMIT_PER_MINUTE, perHour: config.UPSTREAM_LIMIT_PER_HOUR, perDay: config.UPSTREAM_LIMIT_PER_DAY },
    deploymentLimits: { perMinute: config.UPSTREAM_IP_LIMIT_PER_MINUTE, perHour: config.UPSTREAM_IP_LIMIT_PER_HOUR, perDay: config.UPSTREAM_IP_LIMIT_PER_DAY },
    maxInFlight: config.UPSTREAM_MAX_IN_FLIGHT,
    backgroundReserve: config.UPSTREAM_BACKGROUND_RESERVE,
    maxWaitMs: config.UPSTREAM_QUEUE_WAIT_MS,
    now,
  });
  const tokens = createTokenKeeper({
    client: {
      getToken: (k, s) => governor.run({ account: k, priority: 'interactive', kind: 'token', counted: false }, () => client.getToken(k, s)),
    },
    renewBeforeMs: config.UPSTREAM_TOKEN_RENEW_BEFORE_MS,
    now,
  });
  const gateway = new UpstreamGateway(client, governor, tokens, now);
  const service = new TransactionsService(gateway, store.cache, config, now);
  return {
    sim,
    store,
    config,
    governor,
    gateway,
    service,
    account(apiKey, enterpriseId) {
      const cred = CREDENTIALS.find((c) => c.apiKey === apiKey);
      if (!cred) throw new Error(`no simulator credential ${apiKey}`);
      return {
        apiKey,
        enterpriseId: enterpriseId === undefined ? cred.enterpriseId : enterpriseId,
        credentials: async () => ({ apiKey, secret: cred.secret }),
      };
    },
    upstreamCalls(apiKey) {
      const s = sim.stats().accounts[apiKey];
      return s ? s.requests : 0;
    },
    async close() {
      await sim.close();
      store.db.close();
      if (!opts.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
