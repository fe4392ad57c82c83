/**
 * The server's CSV writer (the rules are in csv-format.ts): a whole small document at once, or a
 * stream whose memory stays flat however long the file.
 */
import { stringify, type Stringifier } from 'csv-stringify';
import { stringify as stringifySync } from 'csv-stringify/sync';
import type { CdrFieldKey } from '../cdr/fields';
import { csvOptions, toRow } from './csv-format';

export { ALL_COLUMNS, neutraliseCell, parseColumns, toRow } from './csv-format';

/** A whole (small) CSV document at once. */
export function recordsToCsv(records: readonly Record<string, unknown>[], columns: readonly CdrFieldKey[]): string {
  return stringifySync(records.map((r) => toRow(r, columns)), csvOptions(columns, true));
}

/** A streaming writer: write rows (see toRow), read CSV; memory stays flat however long the file. */
export function createCsvStream(columns: readonly CdrFieldKey[], withBom = true): Stringifier {
  return stringify(csvOptions(columns, withBom));
}
