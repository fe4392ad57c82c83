/**
 * Delivery latency (lib/cdr/latency.ts) as Insights shows it: nearest-rank percentiles — the value
 * at rank ⌈p·n⌉ of the sorted latencies, an actual latency of a record, never an interpolation —
 * and a histogram in buckets a person reads. Selection, not sorting: a month holds about a million
 * latencies, and three ranks of them are found in linear time. Pure.
 */

export const PERCENTILES = [50, 90, 99] as const;
export type Percentile = (typeof PERCENTILES)[number];
export type PercentileValues = Record<`p${Percentile}`, number | null>;

/** The rank (1-based) of the p-th percentile of n values by the nearest-rank method. */
export function nearestRank(p: number, n: number): number {
  return Math.max(1, Math.ceil((p / 100) * n));
}

/**
 * Puts the k-th smallest (0-based) of a[lo..hi] at a[k], smaller ones before it and larger after
 * (Hoare's selection, median of three). Reorders `a`.
 */
function select(a: Float64Array, k: number, lo: number, hi: number): number {
  while (hi > lo) {
    const mid = (lo + hi) >>> 1;
    // Median of three as the pivot, moved to a[lo].
    if (a[mid]! < a[lo]!) swap(a, mid, lo);
    if (a[hi]! < a[lo]!) swap(a, hi, lo);
    if (a[hi]! < a[mid]!) swap(a, hi, mid);
    swap(a, lo, mid);
    const pivot = a[lo]!;
    let i = lo;
    let j = hi + 1;
    for (;;) {
      do i++;
      while (i <= hi && a[i]! < pivot);
      do j--;
      while (a[j]! > pivot);
      if (i >= j) break;
      swap(a, i, j);
    }
    swap(a, lo, j);
    if (j === k) return a[k]!;
    if (j < k) lo = j + 1;
    else hi = j - 1;
  }
  return a[k]!;
}

function swap(a: Float64Array, i: number, j: number): void {
  const t = a[i]!;
  a[i] = a[j]!;
  a[j] = t;
}

/** Percentiles of the values (null when there are none). Reorders `values`. */
export function percentilesOf(values: Float64Array): PercentileValues & { count: number } {
  const n = values.length;
  const out: PercentileValues & { count: number } = { p50: null, p90: null, p99: null, count: n };
  let lo = 0;
  for (const p of PERCENTILES) {
    if (n === 0) break;
    const k = nearestRank(p, n) - 1;
    // Ranks only grow: everything before the last one found is smaller, so look after it.
    out[`p${p}`] = select(values, k, lo, n - 1);
    lo = k;
  }
  return out;
}

/** Several arrays as one (to take the percentiles of a whole range from its days). */
export function concat(arrays: readonly Float64Array[]): Float64Array {
  const out = new Float64Array(arrays.reduce((s, a) => s + a.length, 0));
  let at = 0;
  for (const a of arrays) {
    out.set(a, at);
    at += a.length;
  }
  return out;
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

const UPPER_BOUNDS = LATENCY_BUCKETS.map((b) => b.toMs ?? Infinity);

/** How many values fall in each bucket (a negative one — clock skew upstream — counts in the first). */
export function histogramOf(values: Float64Array): number[] {
  const counts = LATENCY_BUCKETS.map(() => 0);
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    let b = 0;
    while (v >= UPPER_BOUNDS[b]!) b++;
    counts[b]! += 1;
  }
  return counts;
}
