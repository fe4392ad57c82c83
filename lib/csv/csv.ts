/**
 * The server's CSV writer (the rules are in csv-format.ts): a whole small document at once, or a
 * long one in parts (its header, then batches of rows), so memory stays flat however long the file.
 */
import { stringify as stringifySync } from 'csv-stringify/sync';
import type { CdrFieldKey } from '../cdr/fields';
import { csvOptions, toRow } from './csv-format';

export { ALL_COLUMNS, neutraliseCell, parseColumns, toRow } from './csv-format';

/** A whole (small) CSV document at once; `forExcel`: csv-format.ts. */
export function recordsToCsv(records: readonly Record<string, unknown>[], columns: readonly CdrFieldKey[], forExcel = false): string {
  return stringifySync(records.map((r) => toRow(r, columns)), csvOptions(columns, true, forExcel));
}

/** The first part of a long document: the BOM and the header row. */
export function csvHeader(columns: readonly CdrFieldKey[]): string {
  return stringifySync([], csvOptions(columns, true));
}

/**
 * A later part of a long document: a batch of rows (see toRow), no header. The caller reads its
 * records a batch at a time anyway (lib/exports/file-writer.ts), so a batch is written as one
 * string: no stream to pipe, no error to forward, the same bytes.
 */
export function csvRows(rows: Record<string, string | number>[], columns: readonly CdrFieldKey[], forExcel = false): string {
  return stringifySync(rows, { ...csvOptions(columns, false, forExcel), header: false });
}
