/**
 * Which records answer which rows, one rule for the local history's records, an upstream page and
 * a lookup alike: a `trx_id` row is answered by its record wherever it was found (an id names one
 * record); a reference or a number by the records that carry it received within the row's span
 * (a number texted every day is answered, for a row sent on Monday, by Monday's message). A record
 * found twice (the local history and a page, two pages that shifted) counts once. Pure.
 */
import { receivedMs } from '../cdr/record-columns';
import type { ReconcileKind } from './api';
import { foldReference } from './list-values';
import type { StoredMatch, StoredRow } from './job-row';

/** Records a row keeps, at most: a number a campaign texted daily for years is not one row's answer to hold whole. */
export const MAX_MATCHES_KEPT = 1_000;

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/** The fields of a record a row's answer keeps (./job-row.ts StoredMatch), as the upstream wrote them. */
export function matchOf(record: Readonly<Record<string, unknown>>): StoredMatch {
  const parts = record.how_many_message_parts;
  return {
    trx_id: text(record.trx_id).toLowerCase(),
    date_received: text(record.date_received),
    delivery_status: text(record.delivery_status),
    dlr_error_code: text(record.dlr_error_code),
    dlr_reason: text(record.dlr_reason),
    network_code: text(record.network_code),
    network_name: text(record.network_name),
    date_submitted_to_mno: text(record.date_submitted_to_mno),
    date_delivered: text(record.date_delivered),
    how_many_message_parts: typeof parts === 'number' ? parts : parts ? Number(parts) || null : null,
    price: text(record.price),
    price_currency: text(record.price_currency),
    to_address: text(record.to_address),
    ref: text(record.ref),
  };
}

/** The value of a row's kind a record carries, in the form rows keep values (./list-values.ts). */
export function valueOf(kind: ReconcileKind, record: Readonly<Record<string, unknown>>): string {
  if (kind === 'trx_id') return text(record.trx_id).toLowerCase();
  if (kind === 'da') return text(record.to_address);
  return foldReference(text(record.ref));
}

/** Whether a record answers a row (its value is the row's already). */
export function answers(
  kind: ReconcileKind,
  row: Pick<StoredRow, 'spanFrom' | 'spanTo'>,
  record: StoredMatch,
): boolean {
  if (kind === 'trx_id') return true;
  const at = receivedMs(record);
  return at !== null && row.spanFrom !== null && row.spanTo !== null && at >= row.spanFrom && at <= row.spanTo;
}

/**
 * The row's records with `found` added (those that answer it, each once, in received order); null
 * when nothing changed.
 */
export function withMatches(kind: ReconcileKind, row: StoredRow, found: readonly StoredMatch[]): StoredMatch[] | null {
  const held = new Set(row.matches.map((m) => m.trx_id));
  const added = found.filter((m) => !held.has(m.trx_id) && answers(kind, row, m) && held.add(m.trx_id));
  if (added.length === 0 || row.matches.length >= MAX_MATCHES_KEPT) return null;
  return [...row.matches, ...added]
    .sort((a, b) => (receivedMs(a) ?? 0) - (receivedMs(b) ?? 0))
    .slice(0, MAX_MATCHES_KEPT);
}

/** A row's outcome once nothing more can be found for it. */
export function finalOutcome(matches: readonly StoredMatch[]): 'matched' | 'not_found' | 'several' {
  return matches.length === 0 ? 'not_found' : matches.length === 1 ? 'matched' : 'several';
}
