/**
 * The planner's arithmetic (planner.ts decides what is held; this cuts the range by it): a query's
 * range as local and upstream pieces, so that no record is counted twice or lost. Pure.
 *
 * What is held: complete days and complete results, as half-open intervals of instants (ms). The
 * upstream is asked in whole seconds, inclusive at both ends; records carry milliseconds. So an
 * upstream piece [x, y] owns every record from x.000 through y.000, and a local piece between two
 * upstream pieces is the open interval after y and before the next x. A local piece at the edge of
 * the query keeps the query's own (inclusive) end.
 *
 * A complete day D holds [D, D+1 00:00:00.000] (lib/history/held.ts), so a search that ends at
 * midnight after complete days needs no call.
 */
import { merge, type Interval } from '../history';
import { SECOND_MS } from '../time/units';

export type Piece = { kind: 'local' | 'upstream'; from: number; to: number };

/**
 * The query range [from, to] (inclusive, whole seconds) cut into local and upstream pieces, in time
 * order (`to` inclusive in both kinds; upstream pieces start and end on whole seconds).
 */
export function cut(from: number, to: number, held: readonly Interval[]): Piece[] {
  const pieces: Piece[] = [];
  let cursor = from; // the first instant not given to a piece yet
  for (const h of merge(held)) {
    if (h.until <= cursor || h.from > to) continue;
    let localFrom = cursor;
    if (h.from > cursor) {
      // The upstream answers up to the held interval's first instant, which it includes.
      pieces.push({ kind: 'upstream', from: cursor, to: h.from });
      localFrom = h.from + 1;
    }
    if (h.until > to) {
      if (localFrom <= to) pieces.push({ kind: 'local', from: localFrom, to });
      return joinUpstream(pieces);
    }
    // The next upstream piece starts at the last whole second the interval still holds.
    const next = Math.floor((h.until - 1) / SECOND_MS) * SECOND_MS;
    if (next - 1 >= localFrom) pieces.push({ kind: 'local', from: localFrom, to: next - 1 });
    cursor = next;
  }
  if (cursor <= to) pieces.push({ kind: 'upstream', from: cursor, to });
  return joinUpstream(pieces);
}

/** Touching upstream pieces as one (a held interval shorter than a second leaves two). */
function joinUpstream(pieces: Piece[]): Piece[] {
  const out: Piece[] = [];
  for (const p of pieces) {
    const last = out[out.length - 1];
    if (last && last.kind === 'upstream' && p.kind === 'upstream' && p.from <= last.to)
      last.to = Math.max(last.to, p.to);
    else out.push({ ...p });
  }
  return out;
}

/** Only local pieces: the query can be answered with no call. */
export function allLocal(pieces: readonly Piece[]): boolean {
  return pieces.every((p) => p.kind === 'local');
}

/** A range inside the query, inclusive at both ends (ms). */
export interface HeldRange {
  from: number;
  to: number;
}

/**
 * For what only the local history can do (free text, its own filters and orders): the parts of
 * [from, to] it holds, sorted and disjoint — the whole answer is read from these.
 */
export function heldRanges(from: number, to: number, held: readonly Interval[]): HeldRange[] {
  return merge(held)
    .map((i) => ({ from: Math.max(from, i.from), to: Math.min(to, i.until - 1) }))
    .filter((r) => r.to >= r.from);
}

/** The parts of [from, to] that `ranges` (from heldRanges) leave out, in whole seconds as a person reads a range. */
export function gapsOf(from: number, to: number, ranges: readonly HeldRange[]): HeldRange[] {
  const gaps: HeldRange[] = [];
  let cursor = from;
  for (const r of ranges) {
    if (r.from > cursor) gaps.push({ from: cursor, to: r.from - 1 });
    cursor = Math.max(cursor, r.to + 1);
  }
  if (cursor <= to) gaps.push({ from: cursor, to });
  return gaps.map((g) => ({ from: Math.floor(g.from / 1000) * 1000, to: Math.ceil(g.to / 1000) * 1000 }));
}
