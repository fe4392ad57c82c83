import 'server-only';
/**
 * How long an answer of the upstream stays true, in one place. A range that ended more than
 * CACHE_SETTLED_AFTER_HOURS ago is settled: delivery reports have arrived and its records no longer
 * change, so its pages are kept CACHE_SETTLED_TTL_HOURS (and the local history may copy it). A
 * range that touches the last hours is kept CACHE_RECENT_TTL_SECONDS: reports are still arriving.
 * Expired pages stay STALE_GRACE_MS longer as stand-ins for an upstream that cannot be asked.
 */
import type { Config } from '../config';

export const STALE_GRACE_MS = 7 * 86_400_000;

export type CachePolicyConfig = Pick<
  Config,
  'CACHE_SETTLED_AFTER_HOURS' | 'CACHE_SETTLED_TTL_HOURS' | 'CACHE_RECENT_TTL_SECONDS'
>;

export interface CachePolicy {
  /** The instant before which every record is settled. */
  settledBefore(now: number): number;
  /** Whether a range ending at `to` (ms) no longer changes. */
  isSettled(to: number, now: number): boolean;
  /** When a range ending at `to` (ms) settles: what was read of it before may have changed since. */
  settlesAt(to: number): number;
  /** Until when a page of a range ending at `to`, fetched at `now`, is served without asking again. */
  expiresAt(to: number, now: number): number;
}

export function cachePolicy(config: CachePolicyConfig): CachePolicy {
  const settledAfterMs = config.CACHE_SETTLED_AFTER_HOURS * 3_600_000;
  const settledTtlMs = config.CACHE_SETTLED_TTL_HOURS * 3_600_000;
  const recentTtlMs = config.CACHE_RECENT_TTL_SECONDS * 1000;
  const settledBefore = (now: number) => now - settledAfterMs;
  const isSettled = (to: number, now: number) => to <= settledBefore(now);
  return {
    settledBefore,
    isSettled,
    settlesAt: (to) => to + settledAfterMs,
    expiresAt: (to, now) => now + (isSettled(to, now) ? settledTtlMs : recentTtlMs),
  };
}
