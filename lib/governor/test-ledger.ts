/**
 * Ledgers for the governor's pure tests (decision.test.ts, forecast.test.ts, queue.test.ts): an
 * instant, the default limits, and an account's calls spaced out before it.
 */
import type { CallClass } from './classes';
import type { CallRecord, GovernorState, PolicyLimits } from './decision';
import { MINUTE_MS as MINUTE } from '../time/units';

export const NOW = Date.UTC(2026, 10, 20, 12, 0, 0);
export const LIMITS: PolicyLimits = {
  account: { perMinute: 3, perHour: 10, perDay: 100 },
  deployment: null,
  backgroundReserve: 3,
  syncShare: 0.6,
  holdbackShare: 0.2,
  tokensPerMinute: 10,
};
export const SHARED: PolicyLimits = { ...LIMITS, deployment: { perMinute: 3, perHour: 10, perDay: 100 } };

/** `n` calls of an account, `spacing` apart, the last one `agoMs` before now. */
export function calls(
  account: string,
  n: number,
  cls: CallClass = 'interactive',
  agoMs = 5 * MINUTE,
  spacing = 2 * MINUTE,
): CallRecord[] {
  return Array.from({ length: n }, (_, i) => ({ account, cls, at: NOW - agoMs - (n - 1 - i) * spacing }));
}

export const state = (...groups: CallRecord[][]): GovernorState => ({
  calls: groups.flat().sort((a, b) => a.at - b.at),
  blocks: new Map(),
});

export const goesNow = (v: { at: number }) => v.at <= NOW;
