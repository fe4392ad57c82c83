/**
 * Builds the server's real parts through the composition root (lib/root/services.ts) — upstream
 * client, token keeper, governor, SQLite store, transactions and export services — against a
 * simulator started in-process on a free loopback port. For integration tests and benchmarks that
 * need the services without a Next.js server.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configSchema, type Config } from '../../lib/config';
import { buildServices, type Services } from '../../lib/root/services';
import type { UpstreamAccount } from '../../lib/upstream/gateway';
import { CREDENTIALS } from '../../simulator/accounts';
import { startSimulator, type RunningSimulator, type SimulatorOptions } from '../../simulator/server';

export interface Harness extends Services {
  sim: RunningSimulator;
  config: Config;
  account(apiKey: string, enterpriseId?: string | null): UpstreamAccount;
  /** Query+detail requests the simulator has seen for an API key. */
  upstreamCalls(apiKey: string): number;
}

export async function startHarness(
  opts: { sim?: SimulatorOptions; env?: Record<string, string>; dataDir?: string; now?: () => number } = {},
): Promise<Harness> {
  const sim = await startSimulator({ port: 0, quiet: true, perDay: 400, days: 10, limits: false, ...opts.sim });
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'sms-dash-'));
  const config = {
    ...configSchema.parse({ UPSTREAM_BASE_URL: sim.url, DATA_DIR: dataDir, LOG_LEVEL: 'error', ...opts.env }),
    dataDir,
  };
  const services = await buildServices(config, { now: opts.now });
  return {
    ...services,
    sim,
    config,
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
      return sim.stats().accounts[apiKey]?.requests ?? 0;
    },
    async close() {
      await services.close();
      await sim.close();
      if (!opts.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
