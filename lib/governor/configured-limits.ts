import 'server-only';
/**
 * The governor's limits as the configuration sets them, and the settings that together stop a kind
 * of background work for good, said at start-up.
 */
import { RENAMED_VARIABLES, type Config } from '../config';
import { backgroundRate, type PolicyLimits } from './decision';

const unset = (v: string | undefined) => v === undefined || v.trim() === '';

/** The governor's limits as configured (lib/governor/decision.ts). */
export function upstreamLimits(c: Config): PolicyLimits {
  const ip = [c.UPSTREAM_IP_LIMIT_PER_MINUTE, c.UPSTREAM_IP_LIMIT_PER_HOUR, c.UPSTREAM_IP_LIMIT_PER_DAY];
  const anyIp = ip.some((v) => v !== undefined);
  return {
    account: {
      perMinute: c.UPSTREAM_LIMIT_PER_MINUTE,
      perHour: c.UPSTREAM_LIMIT_PER_HOUR,
      perDay: c.UPSTREAM_LIMIT_PER_DAY,
    },
    // One deployment window set means the upstream counts per IP: the others default to the account's.
    deployment: anyIp
      ? {
          perMinute: c.UPSTREAM_IP_LIMIT_PER_MINUTE ?? c.UPSTREAM_LIMIT_PER_MINUTE,
          perHour: c.UPSTREAM_IP_LIMIT_PER_HOUR ?? c.UPSTREAM_LIMIT_PER_HOUR,
          perDay: c.UPSTREAM_IP_LIMIT_PER_DAY ?? c.UPSTREAM_LIMIT_PER_DAY,
        }
      : null,
    backgroundReserve: c.UPSTREAM_BACKGROUND_RESERVE,
    syncShare: c.HISTORY_MAX_SHARE,
    holdbackShare: c.UPSTREAM_IP_HOLDBACK_SHARE,
    tokensPerMinute: c.UPSTREAM_TOKEN_LIMIT_PER_MINUTE,
    arrivalMarginMs: c.UPSTREAM_WINDOW_MARGIN_MS,
  };
}

/**
 * Settings each valid alone that together stop a kind of work for good (a reserve as large as the
 * hour, a copy's share that rounds to no call): said at start-up, where the operator looks, rather
 * than only in an export's estimate or the History page.
 */
export function configWarnings(c: Config, env: NodeJS.ProcessEnv = process.env): string[] {
  const limits = upstreamLimits(c);
  const warnings: string[] = [];
  for (const [old, now] of Object.entries(RENAMED_VARIABLES)) {
    if (!unset(env[old]))
      warnings.push(`${old} is now called ${now}: it is read for this release only when ${now} is unset. Rename it.`);
  }
  const words = { perMinute: 'a minute', perHour: 'an hour', perDay: 'a day' } as const;
  const zeroWindow = (rate: { perMinute: number; perHour: number; perDay: number }) => {
    const window = (['perMinute', 'perHour', 'perDay'] as const).find((w) => rate[w] === 0);
    return window ? words[window] : undefined;
  };
  const exportsStopped = zeroWindow(backgroundRate(limits, 'export'));
  if (exportsStopped) {
    warnings.push(
      `Exports and the local history's sync can never make a call: UPSTREAM_BACKGROUND_RESERVE (${c.UPSTREAM_BACKGROUND_RESERVE}) keeps every call of ${exportsStopped} for people. Lower it below the limits of each window.`,
    );
  } else {
    const syncStopped = zeroWindow(backgroundRate(limits, 'sync'));
    if (syncStopped) {
      warnings.push(
        `The local history's sync can never make a call: HISTORY_MAX_SHARE (${c.HISTORY_MAX_SHARE}) of the calls of ${syncStopped} is less than one. Raise it, or the limits.`,
      );
    }
  }
  return warnings;
}
