/**
 * The rules of the dashboard's CSV, shared by the server's streaming writer (csv.ts) and the
 * browser's "rows on screen" download (csv-browser.ts), so both write the same bytes for the same
 * rows: RFC 4180 (quoted where needed, CRLF), a UTF-8 BOM so Excel reads Japanese correctly, a
 * header row of field names, and every cell safe to open in a spreadsheet.
 *
 * Formula neutralisation follows OWASP's CSV-injection guidance: a cell that starts with `=`, `+`,
 * `-`, `@`, tab, CR or LF (or their full-width forms) is prefixed with `'` AND quoted. csv-stringify's
 * own `escape_formulas` prefixes without quoting and misses LF, so it is not used.
 *
 * Browser-safe: no csv-stringify import here (the two writers load the build for their side).
 */
import { CDR_FIELDS, FIELD_BY_KEY, type CdrFieldKey } from '../cdr/fields';

const FORMULA_START = /^[=+\-@\t\r\n\uFF1D\uFF0B\uFF0D\uFF20]/;

/** A cell value as written: neutralised when it could be read as a formula. */
export function neutraliseCell(value: string): string | { value: string; quoted: true } {
  return FORMULA_START.test(value) ? { value: `'${value}`, quoted: true } : value;
}

/**
 * For Excel (an option): a cell of digits Excel would read as a number and change — a leading zero
 * dropped (`000` → 0), twelve digits or more shown as `8.19059E+11` and saved that way, past fifteen
 * digits rounded — is written as the text formula `="…"`, which Excel shows as the text it holds.
 * Only digits are ever written into it: nothing else can be in the formula.
 */
const EXCEL_CHANGES = /^(0\d*|\d{12,})$/;

function asExcelText(value: string): { value: string; quoted: true } | null {
  return EXCEL_CHANGES.test(value) ? { value: `="${value}"`, quoted: true } : null;
}

export const ALL_COLUMNS: readonly CdrFieldKey[] = CDR_FIELDS.map((f) => f.key);

/**
 * Checks a comma-separated column list from a client; every name must be a CDR field. Empty, or
 * `all` (what a script writer tries first), means every field.
 */
export function parseColumns(raw: string | null | undefined): { columns: CdrFieldKey[] } | { error: string } {
  if (raw === null || raw === undefined || raw.trim() === '' || raw.trim().toLowerCase() === 'all') return { columns: [...ALL_COLUMNS] };
  const names = raw.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = names.filter((n) => !FIELD_BY_KEY.has(n));
  if (unknown.length > 0) return { error: `Unknown column${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. Use field names such as trx_id, date_received, to_address, or "all".` };
  return { columns: [...new Set(names)] as CdrFieldKey[] };
}

/** csv-stringify options (the same for its Node and browser builds); `forExcel`: see asExcelText. */
export function csvOptions(columns: readonly CdrFieldKey[], withBom: boolean, forExcel = false) {
  return {
    bom: withBom,
    header: true,
    columns: columns.map((key) => ({ key, header: key })),
    record_delimiter: 'windows' as const,
    // Without this, csv-stringify quotes a cell with a bare LF or CR only when the record delimiter
    // is left at its default: with CRLF chosen, "line1\nline2" would be written unquoted and split
    // the row in two in every spreadsheet.
    quote_record_delimiter: true,
    cast: {
      string: (value: string) => (forExcel ? asExcelText(value) : null) ?? neutraliseCell(value),
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
