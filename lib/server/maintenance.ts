import 'server-only';
/**
 * Keeps the SQLite file from growing without bound: calls older than every window, cache entries
 * long expired (kept a week past expiry so they can still stand in when the upstream cannot be
 * asked), sessions that ended, and sign-in failures too old to matter. Runs at start and then
 * hourly, off the request path.
 */
import { log } from '../log';
import type { LedgerStore, PageCacheStore, SignInAttemptStore, VaultStore } from '../store';
import { STALE_GRACE_MS } from './cache-policy';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

export interface PrunedStores {
  ledger: LedgerStore;
  cache: PageCacheStore;
  vault: VaultStore;
  signInAttempts: SignInAttemptStore;
  /** How long after its last failure a sign-in streak can still matter (the longest wait and the quiet window). */
  signInStreakMs: number;
  /** The local history keeps every copy within its start day and MIRROR_MAX_DAYS. */
  mirror?: { enforceRetention(): Promise<void> };
}

export async function pruneStore(stores: PrunedStores, now = Date.now()): Promise<void> {
  await stores.ledger.prune(now - 2 * DAY);
  await stores.cache.prune(now - STALE_GRACE_MS);
  await stores.vault.prune(now);
  await stores.signInAttempts.prune(now - stores.signInStreakMs, now);
  await stores.mirror?.enforceRetention();
}

/** Prunes now and then hourly; returns a function that stops it. */
export function scheduleMaintenance(stores: PrunedStores): () => void {
  const run = () => pruneStore(stores).catch((err: unknown) => log.warn('store.prune_failed', { error: err instanceof Error ? err.message : String(err) }));
  void run();
  const timer = setInterval(run, HOUR);
  timer.unref();
  return () => clearInterval(timer);
}
