/**
 * The rules of the dashboard's CSV cells, for its one writer (csv.ts: an export's file on the server,
 * the rows on screen in the browser): RFC 4180 quoting where needed (d3-dsv's), and every cell safe
 * to open in a spreadsheet.
 *
 * Formula neutralisation follows OWASP's CSV-injection guidance: a cell that starts with `=`, `+`,
 * `-`, `@`, tab, CR or LF (or their full-width forms) is prefixed with `'` AND quoted.
 */
import { msg, type Message } from '../i18n/message';
import { csvFormatValue } from 'd3-dsv';
import { CDR_FIELDS, FIELD_BY_KEY, type CdrFieldKey } from '../cdr/fields';

const FORMULA_START = /^[=+\-@\t\r\n\uFF1D\uFF0B\uFF0D\uFF20]/;

/** A cell as RFC 4180 writes it: quoted (its quotes doubled) when it holds a comma, a quote, CR or LF. */
const plainCell = (value: string): string => csvFormatValue(value);

/** A cell quoted whatever it holds (a quoted cell starts with the quote: nothing else does). */
function quotedCell(value: string): string {
  const cell = csvFormatValue(value);
  return cell.startsWith('"') ? cell : `"${cell}"`;
}

/** A text cell as written: neutralised (and quoted) when it could be read as a formula. */
export function neutraliseCell(value: string): string {
  return FORMULA_START.test(value) ? quotedCell(`'${value}`) : plainCell(value);
}

/**
 * For Excel (an option): a cell of digits Excel would read as a number and change — a leading zero
 * dropped (`000` → 0), twelve digits or more shown as `8.19059E+11` and saved that way, past fifteen
 * digits rounded — is written as the text formula `="…"`, which Excel shows as the text it holds.
 * Only digits are ever written into it: nothing else can be in the formula.
 */
const EXCEL_CHANGES = /^(0\d*|\d{12,})$/;

function asExcelText(value: string): string | null {
  return EXCEL_CHANGES.test(value) ? quotedCell(`="${value}"`) : null;
}

export const ALL_COLUMNS: readonly CdrFieldKey[] = CDR_FIELDS.map((f) => f.key);

/**
 * Checks a comma-separated column list from a client; every name must be a CDR field. Empty, or
 * `all` (what a script writer tries first), means every field.
 */
export function parseColumns(raw: string | null | undefined): { columns: CdrFieldKey[] } | { error: Message } {
  if (raw === null || raw === undefined || raw.trim() === '' || raw.trim().toLowerCase() === 'all')
    return { columns: [...ALL_COLUMNS] };
  const names = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !FIELD_BY_KEY.has(n));
  if (unknown.length > 0)
    return { error: msg('query.request.unknownColumns', { count: unknown.length, names: unknown.join(', ') }) };
  return { columns: [...new Set(names)] as CdrFieldKey[] };
}

/**
 * A field's value as its cell: "not applicable" (null, absent) empty, a number as its digits (a
 * negative count is not a formula), text neutralised; for Excel, digits it would change as text.
 */
export function csvCell(value: unknown, forExcel = false): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const text = String(value);
  return (forExcel ? asExcelText(text) : null) ?? neutraliseCell(text);
}
