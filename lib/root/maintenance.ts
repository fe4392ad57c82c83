import 'server-only';
/**
 * Keeps the SQLite file from growing without bound: calls older than every window, cache entries
 * long expired (kept a week past expiry so they can still stand in when the upstream cannot be
 * asked), sessions that ended, and sign-in failures too old to matter. Runs at start and then
 * hourly, off the request path.
 */
import { log } from '../log';
import type { LedgerStore } from '../governor/server';
import type { PageCacheStore } from '../cache/server';
import type { SignInAttemptStore } from '../auth/server';
import type { VaultStore } from '../auth/server';
import { STALE_GRACE_MS } from '../cache/server';
import { DAY_MS, HOUR_MS } from '../time/units';

export interface PrunedStores {
  ledger: LedgerStore;
  cache: PageCacheStore;
  vault: VaultStore;
  signInAttempts: SignInAttemptStore;
  /** How long after its last failure a sign-in streak can still matter (the longest wait and the quiet window). */
  signInStreakMs: number;
  /** The local history keeps each account's copy within its start day and HISTORY_MAX_DAYS. */
  historyRetention?: { enforceRetention(): Promise<void> };
  /** The audit log keeps its entries AUDIT_RETENTION_DAYS (lib/team). */
  auditRetention?: { prune(): Promise<void> };
}

export async function pruneStore(stores: PrunedStores, now = Date.now()): Promise<void> {
  await stores.ledger.prune(now - 2 * DAY_MS);
  await stores.cache.prune(now - STALE_GRACE_MS);
  await stores.vault.prune(now);
  await stores.signInAttempts.prune(now - stores.signInStreakMs, now);
  await stores.historyRetention?.enforceRetention();
  await stores.auditRetention?.prune();
}

/** Prunes now and then hourly; returns a function that stops it. */
export function scheduleMaintenance(stores: PrunedStores): () => void {
  const run = () =>
    pruneStore(stores).catch((err: unknown) =>
      log.warn('store.prune_failed', { error: err instanceof Error ? err.message : String(err) }),
    );
  void run();
  const timer = setInterval(run, HOUR_MS);
  timer.unref();
  return () => clearInterval(timer);
}
