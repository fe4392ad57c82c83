/**
 * The "rows on screen" download, written in the browser from the rows already shown: no request,
 * so certainly no upstream call. Same rules and same library as the server's writer (csv-format.ts),
 * loaded from csv-stringify's browser build; import it lazily, on click.
 */
import { stringify } from 'csv-stringify/browser/esm/sync';
import type { CdrFieldKey } from '../cdr/fields';
import { csvOptions, toRow } from './csv-format';

export function recordsToCsvText(records: readonly Record<string, unknown>[], columns: readonly CdrFieldKey[], forExcel = false): string {
  return stringify(records.map((r) => toRow(r, columns)), csvOptions(columns, true, forExcel));
}
