import 'server-only';
/**
 * The composition root: the one place that builds the server's parts — the store, the gateway
 * (client, token keeper, governor), the search and lookup services, the export service and runner, store
 * maintenance — and wires them together, once per process. Nothing else creates them and nothing
 * else keeps process-wide state: route handlers, pages and the startup hook call `getServices()`.
 *
 * Next.js bundles each route separately and loads instrumentation.ts apart too, so the one
 * instance lives on `globalThis` (under one key) rather than in a module variable; `next build`
 * never calls it, so it touches no data folder.
 */
import { authSecret } from '../auth/server';
import type { SessionsEndReason } from '../auth';
import { endSessions } from '../auth/server';
import { fingerprint } from '../auth/server';
import { unseal } from '../auth/server';
import { SignInThrottle, throttleRulesOf } from '../auth/server';
import { getConfig, type Config } from '../config';
import { ExportService } from '../exports/server';
import { ExportRunner } from '../exports/server';
import { ForegroundWork } from '../background/server';
import { memoryBackend } from '../governor/server';
import { etagOf } from '../search/server';
import { pageJson } from '../search/server';
import { HistoryIndex } from '../history/server';
import { InsightsService } from '../insights/server';
import { HistoryService } from '../history/server';
import { ResultRecorder } from '../history/server';
import { SyncRunner } from '../history/server';
import { createPageSizeStore, PageSizes, searchPageSize } from '../history/server';
import { log } from '../log';
import { cachePolicy, type CachePolicy } from '../cache/server';
import { scheduleMaintenance } from './maintenance';
import { Planner, TransactionsService } from '../search/server';
import { LookupService } from '../lookup/server';
import { createGateway, type UpstreamGateway } from '../upstream/server';
import { openStore, type DurableStore } from './open-store';
import { type PageCacheStore } from '../cache/server';
import { CachedPages, withMemoryCache } from '../cache/server';
import { postgresGovernorBackend } from '../governor/server';
import { createOidcClient, type VaultStore } from '../auth/server';
import { createTeamStores, TeamService, teamAwareVault, type Presenter } from '../team/server';
import type { SignedInAccount } from '../auth/server';
import { exportJobCounts } from '../exports/server';
import { historyDayCounts, historyLagDays } from '../history/server';
import { installFigures } from '../metrics/server';
import { ReconcileRunner, ReconcileService } from '../reconcile/server';

/**
 * Decoded pages kept in memory in front of the page cache: about 100 KB each (100 records), and
 * up to about 220 KB more for each zone its records were shown in (each record presented once,
 * with its JSON: lib/search/present.ts). At most about 200 MB; a page of 25 shown in one zone
 * keeps about 155 KB.
 */
export const MEMORY_CACHE_PAGES = 400;

export interface Services {
  config: Config;
  store: DurableStore;
  /**
   * The session vault as the server reads it: a team person's session takes its team account's key
   * and secret (lib/team/team-vault.ts). Read sessions through this, never store.vault.
   */
  vault: VaultStore;
  /** Team mode: people, roles, the audit log, the team's accounts (lib/team). */
  team: TeamService;
  /**
   * The presenter for a session's role (lib/team/presenter.ts): every answer that carries records
   * passes it. Taken from here, as `answers` is: it keeps the masked records' JSON in this copy.
   */
  present(account: Pick<SignedInAccount, 'team'>): Presenter;
  /** The page cache with the in-memory copy of decoded pages in front. */
  cache: PageCacheStore;
  policy: CachePolicy;
  gateway: UpstreamGateway;
  transactions: TransactionsService;
  /** One transaction by its trx_id (lib/lookup). */
  lookup: LookupService;
  /**
   * How a transactions page is written: its JSON and its ETag, from the JSON kept with each
   * presented record. Taken from here, not imported by the route: the records were presented by
   * this build's copy of the modules, and only that copy holds what it kept (lib/http/json-text.ts).
   */
  answers: { json: typeof pageJson; etag: typeof etagOf };
  exports: ExportService;
  exportRunner: ExportRunner;
  history: HistoryService;
  syncRunner: SyncRunner;
  /** The page size background reads (the copy, exports, reconciliations) ask the upstream for. */
  pageSizes: PageSizes;
  insights: InsightsService;
  reconciliations: ReconcileService;
  reconcileRunner: ReconcileRunner;
  /** Sign-in attempts checked before they reach the upstream (lib/auth/sign-in-throttle.ts). */
  signInThrottle: SignInThrottle;
  /** Ends every session of an API key (lib/auth/end-sessions.ts); how many there were. */
  endSessions(apiKey: string, reason: SessionsEndReason): Promise<number>;
  /**
   * "Sign out everywhere": every session of the key ends, and so does copying while signed out
   * (the secret each of its local histories kept is deleted). How many of each.
   */
  signOutEverywhere(apiKey: string): Promise<{ ended: number; keptSecretsDeleted: number }>;
  /** Starts background work (the export runner, store maintenance): at server start, not in tests. */
  start(): void;
  /**
   * Stops background work, letting each step in flight finish (a call out is paid for: its page is
   * stored, not asked again after a restart) within `graceMs` (then it is aborted), and giving the
   * leases back. The store stays open for the requests still served.
   */
  stopBackground(graceMs?: number): Promise<void>;
  /** Stops background work and closes the store. */
  close(): Promise<void>;
}

export interface BuildOptions {
  now?: () => number;
}

/** Builds every part from a configuration (the server's, or a test's). */
export async function buildServices(config: Config, opts: BuildOptions = {}): Promise<Services> {
  const now = opts.now ?? Date.now;
  const store = await openStore(config);
  const cache = withMemoryCache(store.cache, MEMORY_CACHE_PAGES, now);
  const policy = cachePolicy(config);
  // Several instances on PostgreSQL share one governor through it; one instance keeps it in memory.
  const backend = store.pool
    ? postgresGovernorBackend(store.db, store.pool, { maxInFlight: config.UPSTREAM_MAX_IN_FLIGHT, now })
    : memoryBackend(store.ledger, config.UPSTREAM_MAX_IN_FLIGHT);
  // A renewal refused upstream ends the key's sessions: none of them can renew with that secret.
  const gateway: UpstreamGateway = createGateway(config, backend, now, {
    onCredentialsRefused: (apiKey, refusedSecret) =>
      endSessions({ vault, gateway }, apiKey, 'credentials-refused', refusedSecret),
  });
  const teamStores = createTeamStores(store.db, store.dialect);
  // Every read of a session below goes through this one (a team session's secret is its account's).
  const vault = teamAwareVault(store.vault, teamStores.accounts);
  const team = new TeamService({
    config,
    ...teamStores,
    vault,
    oidc: createOidcClient(config),
    callsByPerson: (apiKey, since) => store.ledger.callsByPerson(apiKey, since),
    forgetToken: (apiKey) => gateway.forget(apiKey),
    now,
    log,
  });
  await team.start();
  const throttleRules = throttleRulesOf(config);
  const signInThrottle = new SignInThrottle({
    store: store.signInAttempts,
    ...throttleRules,
    fingerprint: (value) => fingerprint(value),
    now,
  });
  const historyIndex = new HistoryIndex(store.history, now);
  // The page size background reads ask for (found by the copy's first page: lib/history/sync-page-size.ts);
  // people's searches keep reading 100 a page at most.
  const pageSizes = new PageSizes({ store: createPageSizeStore(store.db), config, log, now });
  const searchPages = searchPageSize(config);
  // Searches and exports decide alike what the local history answers and what goes upstream.
  const planner = new Planner({ index: historyIndex, upstreamPageSize: searchPages });
  // An export's file goes before copying complete results into the local history.
  const foreground = new ForegroundWork();
  const results = new ResultRecorder({
    cache,
    history: store.history,
    index: historyIndex,
    settlesAt: (to) => policy.settlesAt(to),
    pageSize: searchPages,
    maxDays: config.HISTORY_MAX_DAYS,
    now,
    foregroundIdle: () => foreground.idle(),
  });
  const transactions = new TransactionsService({
    gateway,
    cache,
    policy,
    history: store.history,
    planner,
    upstreamPageSize: searchPages,
    onStoredPage: (account, base, sortOrder, totalFound) => results.note(account, base, sortOrder, totalFound),
    now,
  });
  const lookup = new LookupService({ gateway, cache, policy, history: store.history, now });
  const exportRunner = new ExportRunner({
    store: store.exportJobs,
    files: store.exportFiles,
    leases: store.leases,
    vault,
    cache,
    local: { planner, history: store.history },
    // A settled window an export read in full is a complete result the local history can answer from.
    onSharedPage: (account, base, sortOrder, totalFound) => results.note(account, base, sortOrder, totalFound),
    gateway,
    config,
    policy,
    secretOf: (entry) => unseal(entry.sealedSecret, authSecret()),
    now,
    log,
    asForeground: (work) => foreground.run(work),
    pageSizes,
  });
  const syncRunner = new SyncRunner({
    history: store.history,
    index: historyIndex,
    vault,
    leases: store.leases,
    gateway,
    policy,
    config,
    pageSizes,
    secretOf: (sealed) => unseal(sealed, authSecret()),
    now,
    log,
  });
  const history = new HistoryService({
    history: store.history,
    index: historyIndex,
    vault,
    gateway,
    runner: syncRunner,
    cache,
    policy,
    config,
    pageSizes,
    now,
  });
  const insights = new InsightsService({
    history: store.history,
    insights: store.insights,
    index: historyIndex,
    policy,
    now,
  });
  const exportService = new ExportService({
    store: store.exportJobs,
    files: store.exportFiles,
    gateway,
    cache,
    local: { planner, history: store.history },
    runner: exportRunner,
    config,
    pageSizes,
    log,
    now,
  });
  const reconcileRunner = new ReconcileRunner({
    store: store.reconcile,
    leases: store.leases,
    vault: store.vault,
    secretOf: (entry) => unseal(entry.sealedSecret, authSecret()),
    cache,
    policy,
    gateway,
    config,
    // A settled window read whole is a complete result the local history can answer from.
    onSharedPage: (account, base, sortOrder, totalFound) => results.note(account, base, sortOrder, totalFound),
    now,
    log,
  });
  const reconciliations = new ReconcileService({
    store: store.reconcile,
    plan: {
      local: { history: store.history, planner },
      sizes: {
        cached: new CachedPages({ cache, policy, pageSize: searchPages, now }),
        history: store.history,
      },
      gateway,
      now,
    },
    runner: reconcileRunner,
    config,
    // The page size background reads use (probed by the sync, lib/history/sync-page-size.ts), as exports read it.
    pageSize: async () => (await pageSizes.state()).size,
    log,
    now,
  });
  let stopMaintenance: (() => void) | undefined;
  const stopBackground = async (graceMs?: number) => {
    stopMaintenance?.();
    await Promise.all([exportRunner.stop(graceMs), syncRunner.stop(graceMs), reconcileRunner.stop(graceMs)]);
  };
  return {
    config,
    store,
    cache,
    policy,
    gateway,
    transactions,
    lookup,
    answers: { json: pageJson, etag: etagOf },
    exports: exportService,
    exportRunner,
    history,
    syncRunner,
    pageSizes,
    insights,
    reconciliations,
    reconcileRunner,
    signInThrottle,
    endSessions: (apiKey, reason) => endSessions({ vault, gateway }, apiKey, reason),
    async signOutEverywhere(apiKey) {
      const ended = await endSessions({ vault, gateway }, apiKey, 'signed-out-everywhere');
      const keptSecretsDeleted = await history.forgetKeptSecrets(apiKey);
      if (keptSecretsDeleted > 0)
        log.info('history.kept_secrets_deleted', { account: apiKey, copies: keptSecretsDeleted });
      return { ended, keptSecretsDeleted };
    },
    vault,
    team,
    present: (account) => team.presenter(account),
    start() {
      // The figures the metrics read from the store at each scrape (lib/metrics/figures.ts).
      const figures = { db: store.db, history: store.history, policy, config, now };
      installFigures({
        quota: () => gateway.quotaLeft(),
        historyDays: () => historyDayCounts(figures),
        historyLagDays: () => historyLagDays(figures),
        exportJobs: () => exportJobCounts(store.db),
      });
      const signInStreakMs =
        Math.max(throttleRules.perKey.maxWaitMs, throttleRules.perAddress.maxWaitMs) + throttleRules.perKey.windowMs;
      stopMaintenance ??= scheduleMaintenance({
        ledger: store.ledger,
        cache,
        vault: store.vault,
        signInAttempts: store.signInAttempts,
        signInStreakMs,
        historyRetention: history,
        auditRetention: team,
      });
      exportRunner.start();
      syncRunner.start();
      reconcileRunner.start();
    },
    stopBackground,
    async close() {
      await stopBackground();
      await gateway.close();
      await backend.close();
      await store.close();
    },
  };
}

const SERVICES_KEY = Symbol.for('sms-dashboard.services');
const holder = globalThis as unknown as { [SERVICES_KEY]?: Promise<Services> };

/** The process's services, built on first use from the environment's configuration. */
export function getServices(): Promise<Services> {
  let services = holder[SERVICES_KEY];
  if (!services) {
    services = buildServices(getConfig()).then((built) => {
      built.start();
      return built;
    });
    // A failed start (database unreachable) is not kept: the next request tries again.
    services.catch(() => {
      if (holder[SERVICES_KEY] === services) delete holder[SERVICES_KEY];
    });
    holder[SERVICES_KEY] = services;
  }
  return services;
}
