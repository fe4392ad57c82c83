import 'server-only';
/**
 * The answered list as CSV, written with the same care as an export's file (lib/csv: UTF-8 with a
 * BOM, CRLF, every cell formula-safe, Excel's option): the uploaded columns first, as they came,
 * then the answer's. A row that found several records is written once per record (`match` says
 * `2/3`), so a spreadsheet filters and sums them like any other line. Streamed a batch of rows at a
 * time: memory does not grow with the list.
 */
import { Readable } from 'node:stream';
import { csvCell } from '../csv/csv-format';
import type { Zone } from '../time/zones';
import type { AnswerRecord, ReconcileRow } from './api';
import type { ReconcileJobStore } from './job-store';
import { presentRow, type RowWords } from './present';

const BOM = '\uFEFF';
const END = '\r\n';
const BATCH = 1_000;

/** The answer's columns, after the upload's. */
export const ANSWER_COLUMNS = [
  'outcome',
  'problem',
  'match',
  'trx_id',
  'date_received',
  'delivery_status',
  'dlr_error_code',
  'dlr_reason',
  'dlr_meaning',
  'network_code',
  'network_name',
  'date_submitted_to_mno',
  'date_delivered',
  'latency_ms',
  'how_many_message_parts',
  'price',
  'price_currency',
  'to_address',
  'ref',
] as const;

/** An answer column's name in the file: as listed, or `answer_<name>` when the upload has a column of that name. */
export function answerHeader(columns: readonly string[]): string[] {
  const taken = new Set(columns.map((c) => c.trim().toLowerCase()));
  return ANSWER_COLUMNS.map((name) => (taken.has(name) ? `answer_${name}` : name));
}

function answerCells(row: ReconcileRow, record: AnswerRecord | null, match: string, dlr: RowWords['dlr']): unknown[] {
  const r = record;
  return [
    row.outcome,
    row.problem?.detail ?? '',
    match,
    r?.trx_id,
    r?.date_received,
    r?.delivery_status,
    r?.dlr_error_code,
    r?.dlr_reason,
    r ? dlr(r.dlr_error_code) : '',
    r?.network_code,
    r?.network_name,
    r?.date_submitted_to_mno,
    r?.date_delivered,
    r?.latency_ms ?? '',
    r?.how_many_message_parts ?? '',
    r?.price,
    r?.price_currency,
    r?.to_address,
    r?.ref,
  ];
}

/** The lines of one row: one, or one per record found. */
export function rowLines(row: ReconcileRow, columns: readonly string[], excel: boolean, dlr: RowWords['dlr']): string {
  const input = columns.map((c) => csvCell(row.input[c] ?? '', excel));
  const line = (record: AnswerRecord | null, match: string) =>
    [...input, ...answerCells(row, record, match, dlr).map((v) => csvCell(v, excel))].join(',') + END;
  if (row.records.length === 0) return line(null, '');
  return row.records.map((r, i) => line(r, row.records.length > 1 ? `${i + 1}/${row.records.length}` : '')).join('');
}

export function answerFile(
  store: Pick<ReconcileJobStore, 'rowBatch'>,
  job: { id: string; columns: readonly string[] },
  tz: Zone,
  excel: boolean,
  words: RowWords,
): Readable {
  async function* lines(): AsyncGenerator<string> {
    yield BOM + [...job.columns, ...answerHeader(job.columns)].map((c) => csvCell(c)).join(',') + END;
    let after = 0;
    for (;;) {
      const batch = await store.rowBatch(job.id, after, BATCH);
      if (batch.length === 0) return;
      let text = '';
      for (const row of batch) text += rowLines(presentRow(row, job.columns, tz, words), job.columns, excel, words.dlr);
      yield text;
      after = batch[batch.length - 1]!.row;
    }
  }
  return Readable.from(lines(), { objectMode: false });
}
