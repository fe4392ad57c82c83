import 'server-only';
/**
 * The composition root: the one place that builds the server's parts — the store, the gateway
 * (client, token keeper, governor), the transactions service, the export service and runner, store
 * maintenance — and wires them together, once per process. Nothing else creates them and nothing
 * else keeps process-wide state: route handlers, pages and the startup hook call `getServices()`.
 *
 * Next.js bundles each route separately and loads instrumentation.ts apart too, so the one
 * instance lives on `globalThis` (under one key) rather than in a module variable; `next build`
 * never calls it, so it touches no data folder.
 */
import path from 'node:path';
import { authSecret } from '../auth/auth-secret';
import { unseal } from '../auth/secret-box';
import { getConfig, type Config } from '../config';
import { ExportService } from '../exports/export-service';
import { ExportRunner } from '../exports/runner';
import { memoryBackend } from '../governor/memory-backend';
import { log } from '../log';
import { cachePolicy, type CachePolicy } from '../server/cache-policy';
import { scheduleMaintenance } from '../server/maintenance';
import { TransactionsService } from '../server/transactions-service';
import { createGateway, type UpstreamGateway } from '../server/upstream-gateway';
import { createStore, type Store } from '../store';

export interface Services {
  config: Config;
  store: Store;
  policy: CachePolicy;
  gateway: UpstreamGateway;
  transactions: TransactionsService;
  exports: ExportService;
  exportRunner: ExportRunner;
  /** Starts background work (the export runner, store maintenance): at server start, not in tests. */
  start(): void;
  /** Stops background work and closes the store. */
  close(): Promise<void>;
}

export interface BuildOptions {
  now?: () => number;
}

/** Builds every part from a configuration (the server's, or a test's). */
export function buildServices(config: Config, opts: BuildOptions = {}): Services {
  const now = opts.now ?? Date.now;
  const store = createStore(path.join(config.dataDir, 'dashboard.sqlite'));
  const policy = cachePolicy(config);
  const gateway = createGateway(config, memoryBackend(store.ledger, config.UPSTREAM_MAX_IN_FLIGHT), now);
  const transactions = new TransactionsService({ gateway, cache: store.cache, policy, upstreamPageSize: config.UPSTREAM_PAGE_SIZE, now });
  const exportsDir = path.join(config.dataDir, 'exports');
  const exportRunner = new ExportRunner({
    store: store.exports,
    cache: store.cache,
    gateway,
    config,
    policy,
    exportsDir,
    secretOf: (entry) => unseal(entry.sealedSecret, authSecret()),
    now,
    log,
  });
  const exportService = new ExportService({ store: store.exports, gateway, cache: store.cache, runner: exportRunner, config, exportsDir, log, now });
  let stopMaintenance: (() => void) | undefined;
  return {
    config,
    store,
    policy,
    gateway,
    transactions,
    exports: exportService,
    exportRunner,
    start() {
      stopMaintenance ??= scheduleMaintenance(store);
      exportRunner.start();
    },
    async close() {
      stopMaintenance?.();
      await exportRunner.stop();
      store.close();
    },
  };
}

const SERVICES_KEY = Symbol.for('sms-dashboard.services');
const holder = globalThis as unknown as { [SERVICES_KEY]?: Services };

/** The process's services, built on first use from the environment's configuration. */
export function getServices(): Services {
  let services = holder[SERVICES_KEY];
  if (!services) {
    services = buildServices(getConfig());
    holder[SERVICES_KEY] = services;
    services.start();
  }
  return services;
}
