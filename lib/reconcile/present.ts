/**
 * The one way out of a reconciliation's rows, for the API's answers and the CSV file alike: a
 * stored row as a person reads it, times in the chosen zone, the latency worked out. Every output
 * (GET …/rows, GET …/file) goes through presentRow, so a rule on what a person may see of a record
 * (team mode's masking, issue 35) is applied here, once, to both.
 */
import { deliveryLatencyMs } from '../cdr/latency';
import { rezoneTimestamp, type Zone } from '../time/zones';
import type { AnswerRecord, ReconcileRow, RowProblem } from './api';
import type { StoredMatch, StoredRow } from './job-row';

/** A record as an answer gives it, in `tz`. */
export function presentRecord(m: StoredMatch, tz: Zone): AnswerRecord {
  return {
    trx_id: m.trx_id,
    date_received: rezoneTimestamp(m.date_received, tz),
    delivery_status: m.delivery_status,
    dlr_error_code: m.dlr_error_code,
    dlr_reason: m.dlr_reason,
    network_code: m.network_code,
    network_name: m.network_name,
    date_submitted_to_mno: rezoneTimestamp(m.date_submitted_to_mno, tz),
    date_delivered: rezoneTimestamp(m.date_delivered, tz),
    latency_ms: deliveryLatencyMs(m as unknown as Record<string, unknown>),
    how_many_message_parts: m.how_many_message_parts,
    price: m.price,
    price_currency: m.price_currency,
    to_address: m.to_address,
    ref: m.ref,
  };
}

/** The words of a row in the reader's language: why it is invalid, what a DLR code means (./row-words.ts). */
export interface RowWords {
  problem: (problem: RowProblem) => string;
  dlr: (code: string) => string;
}

/** A stored row as the API and the file give it. `columns`: the upload's column names. */
export function presentRow(row: StoredRow, columns: readonly string[], tz: Zone, words: RowWords): ReconcileRow {
  const input: Record<string, string> = {};
  columns.forEach((name, i) => (input[name] = row.cells[i] ?? ''));
  return {
    row: row.row,
    input,
    value: row.value ?? '',
    sentAt: row.sentAt === null ? null : new Date(row.sentAt).toISOString(),
    outcome: row.outcome,
    problem: row.problem ? { code: row.problem.code, detail: words.problem(row.problem) } : null,
    records: row.outcome === 'invalid' ? [] : row.matches.map((m) => presentRecord(m, tz)),
  };
}
