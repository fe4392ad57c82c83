import 'server-only';
/**
 * The rows the local history answers, free: a `trx_id` it holds is matched wherever it lies; a
 * row whose whole span lies in what it holds completely (complete days, complete results of the
 * page cache: lib/history HistoryIndex) is answered outright — found, found several times, or
 * certainly not there. What is left of each row's span is the part only the upstream can answer
 * (./plan-upstream.ts groups those parts into calls).
 */
import { cut, type Interval } from '../history';
import type { HistoryIndex, HistoryStore } from '../history/server';
import type { TimeRange } from '../query/ranges';
import { SECOND_MS } from '../time/units';
import type { ReconcileKind } from './api';
import type { StoredMatch, StoredRow } from './job-row';
import { receivedMs } from '../cdr/record-columns';
import { finalOutcome, matchOf, valueOf, withMatches } from './matches';

export interface LocalDeps {
  history: Pick<HistoryStore, 'records'>;
  index: Pick<HistoryIndex, 'intervals'>;
}

/** A valid row still to answer, with the parts of its span only the upstream holds (set here). */
export type DraftRow = StoredRow & { pieces: TimeRange[] };

/** The record column a kind's values are found by. */
const COLUMN = { 'client-reference': 'ref', da: 'to_address' } as const;

/** Whether an instant lies in what is held. */
function isHeld(at: number | null, held: readonly Interval[]): boolean {
  return at !== null && held.some((h) => at >= h.from && at < h.until);
}

/** The span of a row in whole seconds (the upstream's unit), at least a second long. */
function spanOf(row: StoredRow): TimeRange {
  const from = Math.floor(row.spanFrom! / SECOND_MS) * SECOND_MS;
  const to = Math.max(from + SECOND_MS, Math.ceil(row.spanTo! / SECOND_MS) * SECOND_MS);
  return { from, to };
}

/** The parts of `span` the upstream must answer, given what is held; each at least a second long (the upstream refuses less). */
function upstreamPieces(span: TimeRange, held: readonly Interval[]): TimeRange[] {
  return cut(span.from, span.to, held)
    .filter((p) => p.kind === 'upstream')
    .map((p) => ({ from: p.from, to: Math.max(p.to, p.from + SECOND_MS) }));
}

/**
 * Answers what the local history can of `rows` (pending, valid rows of one kind): each row comes
 * back with its records so far, its outcome when final, and the pieces left for the upstream.
 */
export async function answerLocally(
  deps: LocalDeps,
  scope: { key: string; enterpriseId: string | null },
  kind: ReconcileKind,
  rows: readonly StoredRow[],
): Promise<DraftRow[]> {
  const drafts: DraftRow[] = rows.map((r) => ({ ...r, pieces: [] }));
  if (drafts.length === 0) return drafts;
  const byValue = new Map<string, DraftRow[]>();
  for (const d of drafts) {
    const same = byValue.get(d.value!);
    if (same) same.push(d);
    else byValue.set(d.value!, [d]);
  }
  let from = Infinity;
  let to = -Infinity;
  for (const d of drafts) {
    const span = spanOf(d);
    from = Math.min(from, span.from);
    to = Math.max(to, span.to);
  }

  if (kind === 'trx_id') {
    const held = await deps.index.intervals(scope, from, to, {});
    const found = new Map<string, StoredMatch>();
    for (const body of await deps.history.records(scope.key, 'trx_id', [...byValue.keys()])) {
      const m = matchOf(JSON.parse(body) as Record<string, unknown>);
      found.set(m.trx_id, m);
    }
    for (const d of drafts) {
      const m = found.get(d.value!);
      if (m) {
        d.matches = [m];
        d.outcome = 'matched';
      } else {
        d.pieces = upstreamPieces(spanOf(d), held);
        if (d.pieces.length === 0) d.outcome = 'not_found';
      }
    }
    return drafts;
  }

  // A reference or a number: every record the local history holds of the list's values, read a few
  // hundred values a statement, then each row given those received in its span where the history
  // holds everything (complete days, and complete results of a search by this very value).
  const byRecordValue = new Map<string, StoredMatch[]>();
  for (const body of await deps.history.records(scope.key, COLUMN[kind], [...byValue.keys()])) {
    const m = matchOf(JSON.parse(body) as Record<string, unknown>);
    const value = valueOf(kind, m as unknown as Record<string, unknown>);
    const same = byRecordValue.get(value);
    if (same) same.push(m);
    else byRecordValue.set(value, [m]);
  }
  for (const [value, own] of byValue) {
    const held = await deps.index.intervals(scope, from, to, { [kind]: value });
    const records = (byRecordValue.get(value) ?? []).filter((m) => isHeld(receivedMs(m), held));
    for (const d of own) {
      d.pieces = upstreamPieces(spanOf(d), held);
      d.matches = withMatches(kind, d, records) ?? d.matches;
      if (d.pieces.length === 0) d.outcome = finalOutcome(d.matches);
    }
  }
  return drafts;
}
