/** A QuotaSnapshot at the seed's limits (3/min, 10/h, 100/day) with the calls left given, for unit tests. */
import type { QuotaSnapshot } from '@/lib/governor/api';

export function quotaSnapshot(remaining: [number, number, number], over: Partial<QuotaSnapshot> = {}): QuotaSnapshot {
  const [m, h, d] = remaining;
  return {
    windows: [
      { name: 'minute', limit: 3, used: 3 - m, remaining: m, freesAt: null },
      { name: 'hour', limit: 10, used: 10 - h, remaining: h, freesAt: null },
      { name: 'day', limit: 100, used: 100 - d, remaining: d, freesAt: null },
    ],
    shared: null,
    inFlight: 0,
    queued: { interactive: 0, background: 0 },
    nextCallAt: null,
    blockedUntil: null,
    reserve: 2,
    limitedBy: null,
    limitScope: null,
    ...over,
  };
}
