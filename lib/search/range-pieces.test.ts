import { describe, expect, it } from 'vitest';
import { merge, type Interval } from '../history';
import { cut } from './range-pieces';

const D = Date.UTC(2026, 10, 1);
const H = 3_600_000;
const DAY = 24 * H;
/** A complete day holds [D, D+1 00:00:00.000]. */
const day = (n: number): Interval => ({ from: D + n * DAY, until: D + (n + 1) * DAY + 1 });

/** Every instant (at a coarse step, plus each piece's edges) belongs to exactly one piece. */
function assertPartition(from: number, to: number, pieces: ReturnType<typeof cut>) {
  const owners = (t: number) => pieces.filter((p) => p.from <= t && t <= p.to).length;
  const probes = new Set<number>([from, to]);
  for (const p of pieces)
    for (const t of [p.from - 1, p.from, p.from + 1, p.to - 1, p.to, p.to + 1]) if (t >= from && t <= to) probes.add(t);
  for (let t = from; t <= to; t += 997_331) probes.add(t);
  for (const t of probes) expect(owners(t), `instant ${new Date(t).toISOString()}`).toBe(1);
}

describe('cutting a query range into local and upstream pieces', () => {
  it('answers a range inside complete days locally, even when it ends at midnight', () => {
    const pieces = cut(D, D + 7 * DAY, [0, 1, 2, 3, 4, 5, 6].map(day));
    expect(pieces).toEqual([{ kind: 'local', from: D, to: D + 7 * DAY }]);
  });

  it('asks the upstream only for the rest, with no instant in two pieces and none lost', () => {
    const from = D - 12 * H; // half a day before the first complete day
    const to = D + 3 * DAY + 6 * H; // into the day after the last complete one
    const pieces = cut(from, to, [day(0), day(1), day(2)]);
    expect(pieces.map((p) => p.kind)).toEqual(['upstream', 'local', 'upstream']);
    expect(pieces[0]).toEqual({ kind: 'upstream', from, to: D });
    expect(pieces[1]).toEqual({ kind: 'local', from: D + 1, to: D + 3 * DAY - 1 });
    expect(pieces[2]).toEqual({ kind: 'upstream', from: D + 3 * DAY, to });
    assertPartition(from, to, pieces);
  });

  it('asks the upstream for a gap between complete days', () => {
    const pieces = cut(D, D + 5 * DAY, [day(0), day(1), day(3), day(4)]);
    expect(pieces.map((p) => p.kind)).toEqual(['local', 'upstream', 'local']);
    expect(pieces[1]).toEqual({ kind: 'upstream', from: D + 2 * DAY, to: D + 3 * DAY });
    assertPartition(D, D + 5 * DAY, pieces);
  });

  it('uses a complete result as it holds it: up to its end second, included', () => {
    const result = { from: D + H, until: D + 2 * H + 1 };
    const pieces = cut(D, D + 3 * H, [result]);
    expect(pieces).toEqual([
      { kind: 'upstream', from: D, to: D + H },
      { kind: 'local', from: D + H + 1, to: D + 2 * H - 1 },
      { kind: 'upstream', from: D + 2 * H, to: D + 3 * H },
    ]);
    assertPartition(D, D + 3 * H, pieces);
  });

  it('gives an instant to one upstream piece when a held interval shorter than a second comes before one past the end', () => {
    // The first interval holds no whole second: the upstream asks for its instant twice unless the two
    // upstream pieces around it are joined, and a composed answer would count its records twice.
    const pieces = cut(D, D + H, [
      { from: D + 1000, until: D + 1500 },
      { from: D + 5000, until: D + 2 * H },
    ]);
    expect(pieces).toEqual([
      { kind: 'upstream', from: D, to: D + 5000 },
      { kind: 'local', from: D + 5001, to: D + H },
    ]);
    assertPartition(D, D + H, pieces);
  });

  it('goes upstream for everything when nothing is held, and merges what touches', () => {
    expect(cut(D, D + H, [])).toEqual([{ kind: 'upstream', from: D, to: D + H }]);
    expect(merge([day(1), day(0), { from: D + 5, until: D + 9 }])).toEqual([{ from: D, until: D + 2 * DAY + 1 }]);
  });
});
