/** How the benchmarks write their figures: numbers in English, a target met or not, percentiles. */

export const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** "met" or "MISSED", beside a figure and its target. */
export const verdict = (met: boolean) => (met ? 'met' : 'MISSED');

/** The value at rank ⌈p·n⌉ of the sorted values (nearest rank). */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
