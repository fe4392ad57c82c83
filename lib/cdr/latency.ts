/**
 * Delivery latency: from submission to the network (date_submitted_to_mno) to delivery
 * (date_delivered), in ms; null when either end is missing. The drawer shows it, the local history
 * filters and sorts by it, Insights takes its percentiles: one rule for all.
 */
import { parseUpstreamTimestamp } from '../time/zones';

export function deliveryLatencyMs(record: Record<string, unknown>): number | null {
  const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));
  const submitted = parseUpstreamTimestamp(text(record.date_submitted_to_mno));
  const delivered = parseUpstreamTimestamp(text(record.date_delivered));
  if (!submitted || !delivered) return null;
  return delivered.getTime() - submitted.getTime();
}
