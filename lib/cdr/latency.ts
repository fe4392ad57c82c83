/**
 * Delivery latency: from submission to the network (date_submitted_to_mno) to delivery
 * (date_delivered), in ms; null when either end is missing. The drawer shows it, the local history
 * filters and sorts by it, Insights takes its percentiles: one rule for all.
 */
import { upstreamTimestampMs } from '../time/zones';

export function deliveryLatencyMs(record: Record<string, unknown>): number | null {
  const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));
  return latencyBetween(
    upstreamTimestampMs(text(record.date_submitted_to_mno)),
    upstreamTimestampMs(text(record.date_delivered)),
  );
}

/**
 * A latency this long (about 24.8 days, either way) is no latency: it is longer than any SMS
 * validity period, so one of the two timestamps is wrong. It is also more than Insights' rollups
 * hold (32-bit latencies: lib/history/store/rollups.ts).
 */
export const LATENCY_LIMIT_MS = 2 ** 31;

/** The latency of a record whose submission and delivery times (ms) are known already. */
export function latencyBetween(submittedMs: number | null, deliveredMs: number | null): number | null {
  if (submittedMs === null || deliveredMs === null) return null;
  const latency = deliveredMs - submittedMs;
  return Math.abs(latency) < LATENCY_LIMIT_MS ? latency : null;
}
