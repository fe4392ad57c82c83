/**
 * The dashboard's CSV writer, in the server (an export's file, a CSV answer) and in the browser (the
 * rows on screen) alike, so both write the same bytes for the same rows: a UTF-8 BOM so Excel reads
 * Japanese correctly, a header row of field names, then each record's line, CRLF after each. The
 * cells' rules are in csv-format.ts. A whole small document at once, or a long one in parts (its
 * header, then each row's line), so memory stays flat however long the file.
 *
 * Why d3-dsv's cell quoting (csv-format.ts) and not csv-stringify: an export makes every record
 * into its line on the server's thread as its page comes, and csv-stringify's cast, context object
 * and array per cell cost about four times what d3-dsv's one regular expression a cell does, for
 * the same bytes (bench/NOTES.md).
 */
import type { CdrFieldKey } from '../cdr/fields';
import { csvCell } from './csv-format';

export { ALL_COLUMNS, neutraliseCell, parseColumns } from './csv-format';

const BOM = '\uFEFF';
const RECORD_END = '\r\n';

/** The first part of a long document: the BOM and the header row. */
export function csvHeader(columns: readonly CdrFieldKey[]): string {
  return BOM + columns.map((key) => csvCell(key)).join(',') + RECORD_END;
}

/** Rewrites a column's value before it is written (an export's timestamps into its zone). */
export type CellRewrites = Partial<Record<CdrFieldKey, (value: unknown) => unknown>>;

/**
 * The rest of a long document, one record at a time: its line, with its CRLF (no header). For rows
 * kept apart until the document is put together (an export's, lib/exports/file-writer.ts).
 */
export function csvLineWriter(
  columns: readonly CdrFieldKey[],
  forExcel = false,
  rewrites: CellRewrites = {},
): (record: Readonly<Record<string, unknown>>) => string {
  const cells = columns.map((key) => {
    const rewrite = rewrites[key];
    return rewrite
      ? (record: Readonly<Record<string, unknown>>) => csvCell(rewrite(record[key]), forExcel)
      : (record: Readonly<Record<string, unknown>>) => csvCell(record[key], forExcel);
  });
  return (record) => {
    let line = cells[0] ? cells[0](record) : '';
    for (let i = 1; i < cells.length; i++) line += ',' + cells[i]!(record);
    return line + RECORD_END;
  };
}

/** A whole (small) document at once: the chosen columns of each record, in their order. */
export function recordsToCsv(
  records: readonly Readonly<Record<string, unknown>>[],
  columns: readonly CdrFieldKey[],
  forExcel = false,
): string {
  const line = csvLineWriter(columns, forExcel);
  let text = csvHeader(columns);
  for (const record of records) text += line(record);
  return text;
}
