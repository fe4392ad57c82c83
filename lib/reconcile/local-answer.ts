import 'server-only';
/**
 * The rows the local history answers, free: a `trx_id` it holds is matched wherever it lies; a
 * row whose whole span lies in what it holds completely is answered outright — found, found
 * several times, or certainly not there. What it holds completely is the search planner's to say
 * (lib/search Planner: complete days, complete results of the cache, an enterprise only where it
 * can answer for it); each row's span is planned as a search of its value over that span would be.
 * What is left of each row's span is the part only the upstream can answer (./plan-upstream.ts
 * groups those parts into calls).
 */
import type { HistoryStore } from '../history/server';
import type { Planner } from '../search/server';
import { UPSTREAM_SORT } from '../query/query';
import type { TimeRange } from '../query/ranges';
import { SECOND_MS } from '../time/units';
import { receivedMs } from '../cdr/record-columns';
import type { ReconcileKind } from './api';
import type { StoredMatch, StoredRow } from './job-row';
import { finalOutcome, matchOf, valueOf, withMatches } from './matches';

export interface LocalDeps {
  history: Pick<HistoryStore, 'records'>;
  planner: Pick<Planner, 'plan'>;
}

/** A valid row still to answer, with the parts of its span only the upstream holds (set here). */
export type DraftRow = StoredRow & { pieces: TimeRange[] };

/** The record column a kind's values are found by. */
const COLUMN = { 'client-reference': 'ref', da: 'to_address' } as const;

/** The span of a row in whole seconds (the upstream's unit), at least a second long. */
function spanOf(row: StoredRow): TimeRange {
  const from = Math.floor(row.spanFrom! / SECOND_MS) * SECOND_MS;
  const to = Math.max(from + SECOND_MS, Math.ceil(row.spanTo! / SECOND_MS) * SECOND_MS);
  return { from, to };
}

interface SpanPlan {
  /** Parts only the upstream answers, each at least a second long (the upstream refuses less). */
  upstream: TimeRange[];
  /** Parts the local history holds every record of. */
  local: TimeRange[];
}

/**
 * The planner's plan of a search of `filters` over `span`, as the parts the local history holds
 * and the parts only the upstream does; plans of the same question asked again are reused.
 */
function spanPlanner(deps: LocalDeps, account: { apiKey: string; enterpriseId: string | null }) {
  const known = new Map<string, Promise<SpanPlan>>();
  return (span: TimeRange, filters: Record<string, string>): Promise<SpanPlan> => {
    const key = `${span.from}:${span.to}:${JSON.stringify(filters)}`;
    let planned = known.get(key);
    if (!planned) {
      planned = deps.planner.plan(account, { filters, sort: UPSTREAM_SORT }, span).then((plan) => {
        const pieces = plan.kind === 'upstream' ? [plan.piece] : plan.kind === 'local-only' ? [] : plan.pieces;
        return {
          upstream: pieces
            .filter((p) => p.kind === 'upstream')
            .map((p) => ({ from: p.from, to: Math.max(p.to, p.from + SECOND_MS) })),
          local: plan.kind === 'local-only' ? plan.ranges : pieces.filter((p) => p.kind === 'local'),
        };
      });
      known.set(key, planned);
    }
    return planned;
  };
}

const within = (at: number | null, parts: readonly TimeRange[]) =>
  at !== null && parts.some((p) => at >= p.from && at <= p.to);

/**
 * Answers what the local history can of `rows` (pending, valid rows of one kind): each row comes
 * back with its records so far, its outcome when final, and the pieces left for the upstream.
 */
export async function answerLocally(
  deps: LocalDeps,
  account: { apiKey: string; enterpriseId: string | null; scope: string },
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
  const planOf = spanPlanner(deps, account);

  if (kind === 'trx_id') {
    const found = new Map<string, StoredMatch>();
    for (const body of await deps.history.records(account.scope, 'trx_id', [...byValue.keys()])) {
      const m = matchOf(JSON.parse(body) as Record<string, unknown>);
      found.set(m.trx_id, m);
    }
    for (const d of drafts) {
      const m = found.get(d.value!);
      if (m) {
        d.matches = [m];
        d.outcome = 'matched';
      } else {
        d.pieces = (await planOf(spanOf(d), {})).upstream;
        if (d.pieces.length === 0) d.outcome = 'not_found';
      }
    }
    return drafts;
  }

  // A reference or a number: every record the local history holds of the list's values, read a few
  // hundred values a statement, then each row given those received in its span where the history
  // holds everything (complete days, and complete results of a search by this very value).
  const byRecordValue = new Map<string, StoredMatch[]>();
  for (const body of await deps.history.records(account.scope, COLUMN[kind], [...byValue.keys()])) {
    const m = matchOf(JSON.parse(body) as Record<string, unknown>);
    const value = valueOf(kind, m as unknown as Record<string, unknown>);
    const same = byRecordValue.get(value);
    if (same) same.push(m);
    else byRecordValue.set(value, [m]);
  }
  for (const [value, own] of byValue) {
    const records = byRecordValue.get(value) ?? [];
    for (const d of own) {
      const plan = await planOf(spanOf(d), { [kind]: value });
      d.pieces = plan.upstream;
      const held = records.filter((m) => within(receivedMs(m), plan.local));
      d.matches = withMatches(kind, d, held) ?? d.matches;
      if (d.pieces.length === 0) d.outcome = finalOutcome(d.matches);
    }
  }
  return drafts;
}
