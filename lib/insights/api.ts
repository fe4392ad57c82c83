/**
 * GET /api/insights?<the query's parameters>: delivery at a glance, summed from the local history's
 * complete days (lib/insights). Browser-safe: types only.
 */

/** Hours are answered (`byHour`) for ranges of up to a week (168 bars); a longer range is read by day. */
export const HOURLY_MAX_DAYS = 7;

/** Whether a query's range (ms, both ends) is read by hour: its length, whatever part of it is counted. */
export function readsByHour(from: number, to: number): boolean {
  return to - from <= HOURLY_MAX_DAYS * 86_400_000;
}

/** complete: counted; unsettled: still changing upstream; syncing: being copied; missing: not copied. */
export type DayState = 'complete' | 'unsettled' | 'syncing' | 'missing';

/** How the records of a breakdown fared. `rate` is delivered / total (null for none). */
export interface Outcome {
  total: number;
  delivered: number;
  /** Final failures: undeliverable, expired, rejected, deleted. */
  failed: number;
  /** No final answer: en route, accepted, unknown (and skipped). */
  other: number;
  rate: number | null;
}

export interface PriceTotal {
  currency: string;
  /** Exact decimal, e.g. "1234.56000000" (8 decimals, as the upstream writes prices). */
  total: string;
  /** Records with a price in this currency. */
  records: number;
}

export interface InsightsDay extends Outcome {
  /** YYYY-MM-DD in the query's zone. */
  day: string;
  byStatus: Record<string, number>;
  parts: number;
  price: PriceTotal[];
  latencyMs: LatencyPercentiles;
}

export interface InsightsHour extends Outcome {
  /** `YYYY-MM-DD HH:00` in the query's zone. */
  hour: string;
  byStatus: Record<string, number>;
}

export interface LatencyPercentiles {
  p50: number | null;
  p90: number | null;
  p99: number | null;
  /** Records with a latency (submitted and delivered). */
  count: number;
}

export interface InsightsCoverage {
  /** The first and last counted day (YYYY-MM-DD in the query's zone), null when none is. */
  from: string | null;
  to: string | null;
  /** Every day of the range is counted. */
  complete: boolean;
  /** Records counted. */
  records: number;
  zone: 'UTC' | 'JST';
  /** "complete for Nov 1–20 (54,210 messages); Nov 21–23 not settled, not included". */
  note: string;
  /** Each day of the range in the query's zone: counted (complete) or why not. */
  days: { day: string; state: DayState }[];
}

export interface InsightsAnswer {
  coverage: InsightsCoverage;
  total: number;
  delivered: number;
  rate: number | null;
  byStatus: Record<string, number>;
  byDay: InsightsDay[];
  byHour: InsightsHour[];
  byNetwork: (Outcome & { network_code: string; network_name: string })[];
  bySender: (Outcome & { from_address: string })[];
  byApiKey: (Outcome & { api_key: string; api_key_name: string })[];
  latencyMs: LatencyPercentiles;
  latencyHistogram: { fromMs: number; toMs: number | null; label: string; count: number }[];
  parts: number;
  price: PriceTotal[];
  /** DLR error codes, most frequent first; `final`: a resend will not help (null: a code we do not know). */
  dlrErrors: { code: string; reason: string; final: boolean | null; count: number }[];
  _meta: {
    /** Always "history": Insights reads only the local history and never calls the upstream. */
    source: 'history';
    calls: 0;
    /** Where the sums came from: the hourly rollups, the records (a filter the rollups are not kept by), or both. */
    computedFrom: 'rollups' | 'records' | 'both';
    /** Answered from the answers kept: the same query over the same complete days (they never change). */
    cached: boolean;
    tookMs: number;
  };
}
