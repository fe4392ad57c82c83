/**
 * Deterministic pseudo-random numbers. The same seed must give the same world on every machine and
 * every run, so nothing here touches Math.random. Integer-only mixing keeps it fast enough to draw
 * tens of millions of numbers while generating a million records.
 */

/** murmur3's finaliser: a cheap, well-mixed 32-bit hash of a 32-bit value. */
export function mix32(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

const step = (h: number, p: number) => mix32((h ^ mix32(p >>> 0)) + 0x7f4a7c15);

/** Hashes two to four integers into one 32-bit value (order matters). Not variadic: it runs per record. */
export function hash32(a: number, b: number, c?: number, d?: number): number {
  let h = step(step(0x9e3779b9, a), b);
  if (c !== undefined) h = step(h, c);
  if (d !== undefined) h = step(h, d);
  return h;
}

/** mulberry32: tiny state, so one instance can be re-seeded per record without allocation. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  reseed(seed: number): this {
    this.state = seed >>> 0;
    return this;
  }

  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Uniform in [min, max). */
  range(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  /** Log-uniform in [min, max): many short values and a long tail, like network latencies. */
  logRange(min: number, max: number): number {
    return min * Math.pow(max / min, this.next());
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }

  /** Standard normal (Box–Muller). */
  normal(): number {
    const u = 1 - this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }

  /** Poisson-distributed count: exact for small means, normal approximation for large ones. */
  poisson(mean: number): number {
    if (mean <= 0) return 0;
    if (mean > 30) return Math.max(0, Math.round(mean + Math.sqrt(mean) * this.normal()));
    const limit = Math.exp(-mean);
    let k = 0;
    let p = this.next();
    while (p > limit) {
      k++;
      p *= this.next();
    }
    return k;
  }

  /** Index drawn from cumulative weights (last entry = total). */
  weighted(cumulative: ArrayLike<number>): number {
    const total = cumulative[cumulative.length - 1] as number;
    const x = this.next() * total;
    for (let i = 0; i < cumulative.length; i++) if (x < (cumulative[i] as number)) return i;
    return cumulative.length - 1;
  }
}

/** Cumulative sums of weights, for Rng.weighted. */
export function cumulative(weights: readonly number[]): Float64Array {
  const out = new Float64Array(weights.length);
  let sum = 0;
  weights.forEach((w, i) => (out[i] = sum += w));
  return out;
}
