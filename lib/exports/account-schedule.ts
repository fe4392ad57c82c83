import 'server-only';
/**
 * An export's schedule from the real windows: the durable ledger of calls already made (the
 * account's and the whole deployment's), any hold the upstream asked for, the limits and the
 * interactive reserve from the configuration.
 */
import { upstreamLimits, type Config } from '../config';
import type { ExportJobRecord } from '../store/exports';
import type { LedgerStore } from '../store/ledger';
import { remainingCalls } from './job-record';
import { backgroundRate, backgroundTracks, planCalls, type Track } from './schedule';
import type { ExportSchedule } from '../api/exports';

/** How long one call is assumed to hold the account's single in-flight slot. */
export const ASSUMED_CALL_MS = 1_500;
/** "Free right now" means done within this long: the button waits that much for the file. */
export const FITS_NOW_MS = 20_000;

export type LimitsConfig = Pick<
  Config,
  | 'UPSTREAM_LIMIT_PER_MINUTE'
  | 'UPSTREAM_LIMIT_PER_HOUR'
  | 'UPSTREAM_LIMIT_PER_DAY'
  | 'UPSTREAM_IP_LIMIT_PER_MINUTE'
  | 'UPSTREAM_IP_LIMIT_PER_HOUR'
  | 'UPSTREAM_IP_LIMIT_PER_DAY'
  | 'UPSTREAM_BACKGROUND_RESERVE'
>;

export interface ScheduleDeps {
  ledger: LedgerStore;
  config: LimitsConfig;
  now(): number;
}

/** The account's and the deployment's windows with the calls in them now, and any hold (429). */
export async function accountTracks(deps: ScheduleDeps, apiKey: string): Promise<{ tracks: Track[]; blockedUntil: number | null }> {
  const since = deps.now() - 86_400_000;
  const [accountCalls, allCalls, blockedUntil] = await Promise.all([
    deps.ledger.callsSince(apiKey, since),
    deps.ledger.allCallsSince(since),
    deps.ledger.getBlockedUntil(apiKey),
  ]);
  const limits = upstreamLimits(deps.config);
  const tracks = backgroundTracks({
    accountCalls,
    limits: limits.account,
    deployment: { calls: allCalls, limits: limits.deployment },
    reserve: deps.config.UPSTREAM_BACKGROUND_RESERVE,
  });
  return { tracks, blockedUntil };
}

export async function accountSchedule(deps: ScheduleDeps, apiKey: string, calls: number, callsAhead: number): Promise<ExportSchedule> {
  const now = deps.now();
  const { tracks, blockedUntil } = await accountTracks(deps, apiKey);
  const c = deps.config;
  const plan = planCalls({ tracks, now, blockedUntil, callsAhead, count: calls, callMs: ASSUMED_CALL_MS });
  const rate = backgroundRate(tracks);
  return {
    calls,
    callsAhead,
    startsAt: new Date(plan.startsAt).toISOString(),
    finishAt: plan.finishAt === null ? null : new Date(plan.finishAt).toISOString(),
    durationMs: plan.finishAt === null ? null : Math.max(0, plan.finishAt - now),
    perMinute: rate.perMinute,
    perHour: rate.perHour,
    perDay: rate.perDay,
    reserve: c.UPSTREAM_BACKGROUND_RESERVE,
    fitsNow: plan.fitsNow && plan.finishAt !== null && plan.finishAt - now <= FITS_NOW_MS,
  };
}

/** Calls the account's active jobs still need, in the order they will run (oldest first). */
export function callsQueued(active: readonly ExportJobRecord[], apiKey: string): Map<string, { calls: number; ahead: number; windowsUnknown: number }> {
  const out = new Map<string, { calls: number; ahead: number; windowsUnknown: number }>();
  let ahead = 0;
  for (const job of active) {
    if (job.account !== apiKey) continue;
    const { calls, windowsUnknown } = remainingCalls(job);
    out.set(job.id, { calls, ahead, windowsUnknown });
    ahead += calls;
  }
  return out;
}
