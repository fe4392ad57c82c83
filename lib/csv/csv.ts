/**
 * The server's CSV writer (the rules are in csv-format.ts): a whole small document at once, or a
 * long one in parts (its header, then its rows' lines), so memory stays flat however long the file.
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
 * The rest of a long document, one row at a time (each line with its CRLF, no header): for rows
 * kept apart until the document is put together (an export's, lib/exports/file-writer.ts). The
 * options are made once and each row handed over as its values in column order, which spares
 * csv-stringify reading the columns again for every row.
 */
export function csvLineWriter(columns: readonly CdrFieldKey[], forExcel = false): (row: Record<string, string | number>) => string {
  const { columns: _named, ...options } = { ...csvOptions(columns, false, forExcel), header: false };
  return (row) => stringifySync([columns.map((key) => row[key])], options);
}
