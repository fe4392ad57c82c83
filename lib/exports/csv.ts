/**
 * The CSV writer: RFC 4180 (quoted where needed, CRLF), UTF-8 with a BOM so Excel reads Japanese
 * correctly, a header row of field names, and every cell safe to open in a spreadsheet.
 *
 * Formula neutralisation follows OWASP's CSV-injection guidance: a cell that starts with `=`, `+`,
 * `-`, `@`, tab, CR or LF (or their full-width forms) is prefixed with `'` AND quoted. csv-stringify's
 * own `escape_formulas` prefixes without quoting and misses LF, so it is not used.
 */
import { stringify, type Stringifier } from 'csv-stringify';
import { stringify as stringifySync } from 'csv-stringify/sync';
import { CDR_FIELDS, FIELD_BY_KEY, type CdrFieldKey } from '../cdr/fields';

const FORMULA_START = /^[=+\-@\t\r\n\uFF1D\uFF0B\uFF0D\uFF20]/;

/** A cell value as written: neutralised when it could be read as a formula. */
export function neutraliseCell(value: string): string | { value: string; quoted: true } {
  return FORMULA_START.test(value) ? { value: `'${value}`, quoted: true } : value;
}

export const ALL_COLUMNS: readonly CdrFieldKey[] = CDR_FIELDS.map((f) => f.key);

/** Checks a comma-separated column list from a client; null when every name is a CDR field. */
export function parseColumns(raw: string | null | undefined): { columns: CdrFieldKey[] } | { error: string } {
  if (raw === null || raw === undefined || raw.trim() === '') return { columns: [...ALL_COLUMNS] };
  const names = raw.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = names.filter((n) => !FIELD_BY_KEY.has(n));
  if (unknown.length > 0) return { error: `Unknown column${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. Use field names such as trx_id, date_received, to_address.` };
  return { columns: [...new Set(names)] as CdrFieldKey[] };
}

function options(columns: readonly CdrFieldKey[], withBom: boolean) {
  return {
    bom: withBom,
    header: true,
    columns: columns.map((key) => ({ key, header: key })),
    record_delimiter: 'windows' as const,
    cast: {
      string: (value: string) => neutraliseCell(value),
      number: (value: number) => String(value),
      boolean: (value: boolean) => (value ? 'true' : 'false'),
    },
  };
}

/** Only the chosen columns, with "not applicable" written as an empty cell. */
export function toRow(record: Record<string, unknown>, columns: readonly CdrFieldKey[]): Record<string, string | number> {
  const row: Record<string, string | number> = {};
  for (const key of columns) {
    const v = record[key];
    row[key] = v === null || v === undefined ? '' : typeof v === 'number' ? v : String(v);
  }
  return row;
}

/** A whole (small) CSV document at once. */
export function recordsToCsv(records: readonly Record<string, unknown>[], columns: readonly CdrFieldKey[]): string {
  return stringifySync(records.map((r) => toRow(r, columns)), options(columns, true));
}

/** A streaming writer: write rows, read CSV; memory stays flat however long the file. */
export function createCsvStream(columns: readonly CdrFieldKey[], withBom = true): Stringifier {
  return stringify(options(columns, withBom));
}
