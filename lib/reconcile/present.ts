/**
 * The one way out of a reconciliation's rows, for the API's answers and the CSV file alike: a
 * stored row as a person reads it, times in the chosen zone, the latency worked out. Every output
 * (GET …/rows, GET …/file) goes through presentRow, so what a person may see of a record is decided
 * here, once, for both: for a role that sees personal data masked (team mode, README "Team mode"),
 * the records' numbers are masked by the one masking rule (lib/team), and so are the numbers the
 * upload carried (a list of numbers, or a column of them beside trx_ids), whoever uploaded it: the
 * list is the account's, and other people of the team read it too.
 */
import { deliveryLatencyMs } from '../cdr/latency';
import { maskNumber } from '../team';
import { rezoneTimestamp, type Zone } from '../time/zones';
import type { AnswerRecord, ReconcileRow, RowProblem } from './api';
import type { ReconcileJobRecord, StoredMatch, StoredRow } from './job-row';

/** A record as an answer gives it, in `tz`; its number masked when `masked`. */
export function presentRecord(m: StoredMatch, tz: Zone, masked = false): AnswerRecord {
  const record: AnswerRecord = {
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
  return masked ? { ...record, to_address: maskNumber(record.to_address) } : record;
}

/** What the rows were read as: the kind of list and which uploaded column held its values. */
export interface RowSource {
  columns: readonly string[];
  kind: ReconcileJobRecord['kind'];
  valueColumn: number;
}

/**
 * An uploaded cell that reads as a phone number (digits, at least 7, with an optional "+" and the
 * spaces, hyphens or brackets people write them with). A trx_id or a reference in the list's own
 * column is not a number, even when it is all digits: the list's kind says what that column holds.
 */
function looksLikeNumber(cell: string): boolean {
  return /^\+?[\d\s\-()]+$/.test(cell.trim()) && cell.replace(/\D/g, '').length >= 7;
}

function maskedCell(cell: string, isValueColumn: boolean, kind: RowSource['kind']): string {
  if (isValueColumn) return kind === 'da' ? maskNumber(cell) : cell;
  return looksLikeNumber(cell) ? maskNumber(cell) : cell;
}

/** The words of a row in the reader's language: why it is invalid, what a DLR code means (./row-words.ts). */
export interface RowWords {
  problem: (problem: RowProblem) => string;
  dlr: (code: string) => string;
}

/** A stored row as the API and the file give it, masked for a role that sees personal data masked. */
export function presentRow(row: StoredRow, source: RowSource, tz: Zone, words: RowWords, masked = false): ReconcileRow {
  const input: Record<string, string> = {};
  source.columns.forEach((name, i) => {
    const cell = row.cells[i] ?? '';
    input[name] = masked ? maskedCell(cell, i === source.valueColumn, source.kind) : cell;
  });
  const value = row.value ?? '';
  return {
    row: row.row,
    input,
    value: masked && source.kind === 'da' ? maskNumber(value) : value,
    sentAt: row.sentAt === null ? null : new Date(row.sentAt).toISOString(),
    outcome: row.outcome,
    problem: row.problem ? { code: row.problem.code, detail: words.problem(row.problem) } : null,
    records: row.outcome === 'invalid' ? [] : row.matches.map((m) => presentRecord(m, tz, masked)),
  };
}
