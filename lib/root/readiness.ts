import 'server-only';
/**
 * Whether this instance should be sent traffic (GET /api/health/ready): it is not stopping, its
 * store answers, the store has every migration this version knows, and its background runners
 * (exports, the local history's copy, reconciliations) are running. The first check that fails is named, so the
 * operator knows where to look; nothing else is said (no version, no counts: the probe has no
 * session and anyone may ask it).
 */
import { pendingMigrations } from '../db/migrate';
import { log } from '../log';
import { isStopping } from './graceful-stop';
import type { Services } from './services';

export type ReadinessCheck = 'stopping' | 'store' | 'migrations' | 'background';

export type Readiness = { ready: true } | { ready: false; failing: ReadinessCheck };

/** A probe must answer in time: a store that does not answer within this is not ready. */
const STORE_CHECK_MS = 3_000;

function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

export async function readiness(services: () => Promise<Services>): Promise<Readiness> {
  if (isStopping()) return { ready: false, failing: 'stopping' };
  let s: Services;
  try {
    s = await within(STORE_CHECK_MS, services());
    await within(STORE_CHECK_MS, s.store.ping());
  } catch (err) {
    log.warn('health.not_ready', { check: 'store', error: err instanceof Error ? err.message : String(err) });
    return { ready: false, failing: 'store' };
  }
  try {
    const pending = await within(STORE_CHECK_MS, pendingMigrations(s.store.db, s.store.dialect));
    if (pending.length > 0) {
      log.warn('health.not_ready', { check: 'migrations', pending });
      return { ready: false, failing: 'migrations' };
    }
  } catch (err) {
    log.warn('health.not_ready', { check: 'migrations', error: err instanceof Error ? err.message : String(err) });
    return { ready: false, failing: 'migrations' };
  }
  const stalled = [
    ['exports', s.exportRunner.alive()],
    ['history', s.syncRunner.alive()],
    ['reconcile', s.reconcileRunner.alive()],
  ].filter(([, alive]) => !alive);
  if (stalled.length > 0) {
    log.warn('health.not_ready', { check: 'background', runners: stalled.map(([name]) => name) });
    return { ready: false, failing: 'background' };
  }
  return { ready: true };
}
