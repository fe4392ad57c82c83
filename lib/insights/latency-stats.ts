/**
 * Delivery latency (lib/cdr/latency.ts) as Insights shows it: nearest-rank percentiles — the value
 * at rank ⌈p·n⌉ of the sorted latencies, an actual latency of a record, never an interpolation —
 * per day and over several days, and a histogram in buckets a person reads. Pure.
 */

export const PERCENTILES = [50, 90, 99] as const;
export type Percentile = (typeof PERCENTILES)[number];
export type PercentileValues = Record<`p${Percentile}`, number | null>;

/** The rank (1-based) of the p-th percentile of n values by the nearest-rank method. */
export function nearestRank(p: number, n: number): number {
  return Math.max(1, Math.ceil((p / 100) * n));
}

/** Percentiles of one ascending array (null when it is empty). */
export function percentilesOf(sorted: Float64Array): PercentileValues {
  const n = sorted.length;
  const at = (p: number) => (n === 0 ? null : sorted[nearestRank(p, n) - 1]!);
  return { p50: at(50), p90: at(90), p99: at(99) };
}

/** How many values of an ascending array are ≤ v. */
function countAtMost(sorted: Float64Array, v: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The k-th smallest (1-based) value of the union of ascending arrays, without merging them: the
 * smallest value v with at least k values ≤ v, found by bisection over the values themselves.
 */
export function kthOfSorted(arrays: readonly Float64Array[], k: number): number {
  let lo = Infinity;
  let hi = -Infinity;
  for (const a of arrays) {
    if (a.length === 0) continue;
    lo = Math.min(lo, a[0]!);
    hi = Math.max(hi, a[a.length - 1]!);
  }
  if (lo > hi) throw new RangeError('no values');
  // Invariant: the answer lies in [lo, hi]. Latencies are whole ms, so this ends in ~30 steps.
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    let count = 0;
    for (const a of arrays) count += countAtMost(a, mid);
    if (count >= k) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Percentiles of the union of ascending arrays of whole numbers. */
export function percentilesOfAll(arrays: readonly Float64Array[]): PercentileValues & { count: number } {
  const n = arrays.reduce((s, a) => s + a.length, 0);
  const at = (p: number) => (n === 0 ? null : kthOfSorted(arrays, nearestRank(p, n)));
  return { p50: at(50), p90: at(90), p99: at(99), count: n };
}

/** Histogram buckets: [from, to) ms, `to` null for the last; labels as a person says them. */
export const LATENCY_BUCKETS: readonly { fromMs: number; toMs: number | null; label: string }[] = [
  { fromMs: 0, toMs: 1_000, label: '< 1 s' },
  { fromMs: 1_000, toMs: 2_000, label: '1–2 s' },
  { fromMs: 2_000, toMs: 5_000, label: '2–5 s' },
  { fromMs: 5_000, toMs: 10_000, label: '5–10 s' },
  { fromMs: 10_000, toMs: 30_000, label: '10–30 s' },
  { fromMs: 30_000, toMs: 60_000, label: '30–60 s' },
  { fromMs: 60_000, toMs: 300_000, label: '1–5 min' },
  { fromMs: 300_000, toMs: 1_800_000, label: '5–30 min' },
  { fromMs: 1_800_000, toMs: 3_600_000, label: '30–60 min' },
  { fromMs: 3_600_000, toMs: 6 * 3_600_000, label: '1–6 h' },
  { fromMs: 6 * 3_600_000, toMs: null, label: '≥ 6 h' },
];

/** How many values fall in each bucket (values below 0 — a clock skew upstream — count in the first). */
export function histogramOf(arrays: readonly Float64Array[]): number[] {
  return LATENCY_BUCKETS.map((b, i) => {
    let count = 0;
    for (const a of arrays) {
      const below = i === 0 ? 0 : countAtMost(a, b.fromMs - 1);
      const upTo = b.toMs === null ? a.length : countAtMost(a, b.toMs - 1);
      count += upTo - below;
    }
    return count;
  });
}
