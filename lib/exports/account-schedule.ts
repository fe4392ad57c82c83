import 'server-only';
/**
 * An export's schedule, asked of the governor (the one owner of the windows, the reserve and the
 * upstream's holds): when its remaining calls can go at export priority, and at what rate.
 */
import type { ExportJobRecord } from './job-row';
import type { UpstreamGateway } from '../upstream/server';
import { backgroundRate } from '../governor/server';
import { remainingCalls } from './job-record';
import type { ExportSchedule } from './api';

/** How long one call is assumed to hold the account's single in-flight slot. */
export const ASSUMED_CALL_MS = 1_500;
/** "Free right now" means done within this long: the button waits that much for the file. */
export const FITS_NOW_MS = 20_000;

export interface ScheduleDeps {
  gateway: Pick<UpstreamGateway, 'planCalls' | 'limits'>;
  now(): number;
}

/** When an account's export calls can go, from the governor's own windows, at export priority. */
export async function accountSchedule(
  deps: ScheduleDeps,
  apiKey: string,
  calls: number,
  callsAhead: number,
): Promise<ExportSchedule> {
  const now = deps.now();
  const plan = await deps.gateway.planCalls(apiKey, 'export', calls, callsAhead, ASSUMED_CALL_MS);
  const rate = backgroundRate(deps.gateway.limits, 'export');
  return {
    calls,
    callsAhead,
    startsAt: new Date(plan.startsAt).toISOString(),
    finishAt: plan.finishAt === null ? null : new Date(plan.finishAt).toISOString(),
    durationMs: plan.finishAt === null ? null : Math.max(0, plan.finishAt - now),
    perMinute: rate.perMinute,
    perHour: rate.perHour,
    perDay: rate.perDay,
    reserve: deps.gateway.limits.backgroundReserve,
    fitsNow: plan.fitsNow && plan.finishAt !== null && plan.finishAt - now <= FITS_NOW_MS,
  };
}

/** Calls the account's active jobs still need, in the order they will run (oldest first). */
export function callsQueued(
  active: readonly ExportJobRecord[],
  apiKey: string,
): Map<string, { calls: number; ahead: number; windowsUnknown: number }> {
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
