/**
 * One cell of an uploaded list read as what it names, through the rules the rest of the dashboard
 * reads the same input by: a `trx_id` as the lookup box reads it (lib/lookup/trx-id.ts: capitals,
 * groups, the UUID form, a link to its page, full-width), a number as the `da` filter normalises it
 * (lib/query/filters.ts: `+81 90-1234-5678`, `090-1234-5678`, full-width digits), a client reference
 * as a Japanese keyboard types it folded (lib/cdr/typed-text.ts: `ＯＲＤ－２０２６` is ORD-2026).
 * Pure, browser-safe: the page checks a paste with it before sending.
 */
import { normaliseTrxId, trxIdProblem } from '../lookup';
import { halfWidth } from '../cdr/typed-text';
import { filterDef, filterProblem } from '../query/filters';
import type { ReconcileKind, RowProblem } from './api';

export type ValueReading = { ok: true; value: string } | ({ ok: false } & RowProblem);

/** A client reference read folded, so either form a person or a record writes finds the other. */
export function foldReference(value: string): string {
  return halfWidth(value).trim();
}

export function readValue(kind: ReconcileKind, cell: string): ValueReading {
  const raw = cell.trim();
  if (raw === '') return { ok: false, code: 'empty' };
  if (kind === 'trx_id') {
    // The lookup box's rule says whether it is one; only its length is said apart, with the count.
    const value = normaliseTrxId(raw);
    if (trxIdProblem(raw) === null) return { ok: true, value };
    if (value === '') return { ok: false, code: 'empty' };
    return /^[0-9a-f]+$/.test(value)
      ? { ok: false, code: 'trx-id-length', values: { length: value.length } }
      : { ok: false, code: 'trx-id-characters' };
  }
  const def = filterDef(kind);
  // As the search form reads a typed filter (lib/query/query.ts): a number folded to half-width first.
  const typed = kind === 'da' ? halfWidth(raw).trim() : foldReference(raw);
  const value = def.normalise ? def.normalise(typed) : typed;
  const problem = filterProblem(def, value);
  if (problem === null) return { ok: true, value };
  return { ok: false, code: kind === 'da' ? 'not-a-number' : 'not-a-reference' };
}

/**
 * The kind a column's values read as, when nobody said: trx_ids when nearly every sampled value
 * is one (a mistyped one is listed as invalid, not taken for a reference), else numbers, else
 * references.
 */
export function guessKind(cells: readonly string[]): ReconcileKind {
  const sample = cells.filter((c) => c.trim() !== '').slice(0, 50);
  if (sample.length === 0) return 'trx_id';
  const mostly = (kind: ReconcileKind) => sample.filter((c) => readValue(kind, c).ok).length >= sample.length * 0.9;
  if (mostly('trx_id')) return 'trx_id';
  if (mostly('da')) return 'da';
  return 'client-reference';
}
