/**
 * trx_id ⇄ record position, without storing a single id.
 *
 * A record is named by (UTC day number, position within that day's generated stream). Those two
 * numbers plus two check words form 128 bits, which a keyed Feistel network (a bijection, so ids
 * are unique by construction) scrambles into 32 lowercase hex characters that look random. Reading
 * an id back runs the network backwards and checks the check words, so a forged or mistyped id is
 * rejected without a lookup table — a million ids would otherwise cost ~100 MB of Map.
 *
 * Because the name depends on the day and not on where the simulator's window starts, a message
 * keeps its trx_id across restarts with the same seed and per-day volume.
 */
import { hash32, mix32 } from './rng';

const ROUNDS = 6;

function roundKeys(seed: number): Uint32Array {
  const keys = new Uint32Array(ROUNDS * 2);
  for (let i = 0; i < keys.length; i++) keys[i] = hash32(seed, 0x7278, i);
  return keys;
}

function f0(c: number, d: number, k: number, round: number): number {
  return mix32(c ^ k ^ mix32((d + round) | 0));
}
function f1(c: number, d: number, k: number): number {
  return mix32(d ^ k ^ mix32(c ^ 0x5bd1e995));
}

function hex8(x: number): string {
  return (x >>> 0).toString(16).padStart(8, '0');
}

export class TrxCodec {
  private readonly keys: Uint32Array;
  private readonly seed: number;

  constructor(seed: number) {
    this.seed = seed;
    this.keys = roundKeys(seed);
  }

  encode(day: number, position: number): string {
    let a = day >>> 0;
    let b = position >>> 0;
    let c = hash32(this.seed, day, position, 1);
    let d = hash32(this.seed, day, position, 2);
    for (let r = 0; r < ROUNDS; r++) {
      const na = a ^ f0(c, d, this.keys[r * 2] as number, r);
      const nb = b ^ f1(c, d, this.keys[r * 2 + 1] as number);
      a = c;
      b = d;
      c = na >>> 0;
      d = nb >>> 0;
    }
    return hex8(a) + hex8(b) + hex8(c) + hex8(d);
  }

  /** The (day, position) an id names, or null when it is not an id this world could have issued. */
  decode(id: string): { day: number; position: number } | null {
    if (!/^[0-9a-f]{32}$/.test(id)) return null;
    let a = parseInt(id.slice(0, 8), 16);
    let b = parseInt(id.slice(8, 16), 16);
    let c = parseInt(id.slice(16, 24), 16);
    let d = parseInt(id.slice(24, 32), 16);
    for (let r = ROUNDS - 1; r >= 0; r--) {
      const pc = a;
      const pd = b;
      const pa = c ^ f0(pc, pd, this.keys[r * 2] as number, r);
      const pb = d ^ f1(pc, pd, this.keys[r * 2 + 1] as number);
      a = pa >>> 0;
      b = pb >>> 0;
      c = pc;
      d = pd;
    }
    if (c !== hash32(this.seed, a, b, 1) || d !== hash32(this.seed, a, b, 2)) return null;
    return { day: a, position: b };
  }
}
