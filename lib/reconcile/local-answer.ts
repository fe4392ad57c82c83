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
import { localSearchOf } from '../history/server';
import { UPSTREAM_SORT } from '../query/query';
import type { TimeRange } from '../query/ranges';
import { SECOND_MS } from '../time/units';
import type { ReconcileKind } from './api';
import type { StoredRow } from './job-row';
import { finalOutcome, matchOf, MAX_MATCHES_KEPT, withMatches } from './matches';

export interface LocalDeps {
  history: Pick<HistoryStore, 'records' | 'page'>;
  index: Pick<HistoryIndex, 'intervals'>;
}

/** A valid row still to answer, with the parts of its span only the upstream holds (set here). */
export type DraftRow = StoredRow & { pieces: TimeRange[] };

/** Lookups of the local history at once (PostgreSQL answers them in parallel; SQLite one by one anyway). */
const PARALLEL = 4;

async function eachLimited<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, items.length) }, worker));
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
  const spans = drafts.map(spanOf);
  const from = Math.min(...spans.map((s) => s.from));
  const to = Math.max(...spans.map((s) => s.to));

  if (kind === 'trx_id') {
    const held = await deps.index.intervals(scope, from, to, {});
    const found = new Map<string, DraftRow['matches'][number]>();
    for (const body of await deps.history.records(scope.key, [...byValue.keys()])) {
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

  await eachLimited([...byValue.keys()], async (value) => {
    const own = byValue.get(value)!;
    // Complete results of a search by this very reference or number count too.
    const held = await deps.index.intervals(scope, from, to, { [kind]: value });
    const local: TimeRange[] = [];
    for (const d of own) {
      const span = spanOf(d);
      d.pieces = upstreamPieces(span, held);
      for (const p of cut(span.from, span.to, held)) if (p.kind === 'local') local.push({ from: p.from, to: p.to });
    }
    if (local.length > 0) {
      const search = localSearchOf(
        scope.key,
        { filters: { [kind]: value }, sort: UPSTREAM_SORT, sortOrder: 'asc' },
        local,
      );
      const found = (await deps.history.page(search, 0, MAX_MATCHES_KEPT)).map((body) =>
        matchOf(JSON.parse(body) as Record<string, unknown>),
      );
      for (const d of own) d.matches = withMatches(kind, d, found) ?? d.matches;
    }
    for (const d of own) if (d.pieces.length === 0) d.outcome = finalOutcome(d.matches);
  });
  return drafts;
}
