/**
 * Builds the server's real parts — upstream client, token keeper, governor, SQLite store,
 * transactions service — against a simulator started in-process on a free loopback port. For
 * integration tests and benchmarks that need the services without a Next.js server.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configSchema, type Config } from '../config';
import type { Governor } from '../governor/governor';
import { TransactionsService } from '../server/transactions-service';
import { createGateway, type UpstreamAccount, type UpstreamGateway } from '../server/upstream-gateway';
import { createStore, type Store } from '../store';
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
  const gateway = createGateway(config, store.ledger, now);
  const governor = gateway.governor;
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
