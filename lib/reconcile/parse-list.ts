/**
 * An uploaded list (a CSV or TSV file, lines pasted, or a JSON list of values) read into rows: the
 * value of each, its send time and expected cost when the list has them, or why the row cannot be
 * answered. Nothing is dropped silently: a row whose value, time or cost cannot be read is kept as
 * `invalid` with the reason. Only lines with no cell at all are not rows (a spreadsheet's blank
 * lines), and they keep their number, so row N is the Nth line after the header as the
 * spreadsheet shows it. Pure.
 */
import { dsvFormat } from 'd3-dsv';
import { msg, type Words } from '../i18n/message';
import { halfWidth } from '../cdr/typed-text';
import type { Zone } from '../time/zones';
import { MAX_RECONCILE_ROWS, type ReconcileKind, type RowProblem } from './api';
import { chosenColumn, columnFor, looksLikeHeader, valueColumnOf } from './list-columns';
import { guessKind, readValue } from './list-values';
import { readSendTime, type SendSpan } from './send-time';

export interface ListOptions {
  kind?: ReconcileKind;
  /** The value's column: a header name or a number from 1. */
  column?: string;
  timeColumn?: string;
  costColumn?: string;
  tz: Zone;
}

export interface ParsedRow {
  /** From 1, the Nth line after the header. */
  row: number;
  cells: string[];
  /** The value as the records write it; null for an invalid row. */
  value: string | null;
  /** From the row's send time; null when it has none. */
  span: SendSpan | null;
  /** Expected cost of the row (decimal string), when the list has a cost column and the row a cost. */
  cost: string | null;
  problem: RowProblem | null;
}

export interface ParsedList {
  kind: ReconcileKind;
  /** The upload's column names (its header, or `value`, `column 2`, … without one). */
  columns: string[];
  valueColumn: number;
  timeColumn: number | null;
  costColumn: number | null;
  rows: ParsedRow[];
}

export type ListReading = { ok: true; list: ParsedList } | { ok: false; errors: Record<string, Words> };

/** The delimiter of a text list: a tab (a paste from a spreadsheet), a semicolon (some locales' CSV), else a comma. */
function delimiterOf(firstLine: string): string {
  if (firstLine.includes('\t')) return '\t';
  if (firstLine.includes(';') && !firstLine.includes(',')) return ';';
  return ',';
}

/** An expected cost as people write it: `3.30`, `¥3.30`, `JPY 3.30`, `1,234.5`, full-width. */
export function readCost(cell: string): string | null | 'bad' {
  const text = halfWidth(cell)
    .replace(/[¥$€£,\s]|JPY|USD|EUR|円/gi, '')
    .trim();
  if (text === '') return null;
  if (!/^\d{1,10}(\.\d{1,8})?$/.test(text)) return 'bad';
  return text;
}

/**
 * A first row of names the header list does not know (`a,b`), told by its value: the chosen
 * column's first cell does not read as the list's kind where the next rows' do, and holds no digit
 * (a mistyped first value usually does: it stays a row, and is listed as invalid).
 */
function unnamedHeader(table: readonly string[][], opts: ListOptions): boolean {
  if (table.length < 2) return false;
  const index = chosenColumn(opts.column, null) ?? 0;
  const next = table.slice(1, 51).map((r) => r[index] ?? '');
  const kind = opts.kind ?? guessKind(next);
  const cell = table[0]![index] ?? '';
  return (
    !/\d/.test(cell) &&
    !readValue(kind, cell).ok &&
    next.filter((c) => c.trim() !== '').every((c) => readValue(kind, c).ok)
  );
}

export function parseListText(text: string, opts: ListOptions): ListReading {
  const body = text.replace(/^\uFEFF/, '');
  const firstLine = body.slice(0, body.search(/\r?\n|$/));
  const table = dsvFormat(delimiterOf(firstLine)).parseRows(body);
  const first = table[0] ?? [];
  const namedByChoice = [opts.column, opts.timeColumn, opts.costColumn].some((c) => c && !/^\s*\d+\s*$/.test(c));
  const header =
    table.length > 0 && (looksLikeHeader(first) || namedByChoice || unnamedHeader(table, opts))
      ? first.map((c) => c.trim())
      : null;
  const data = header ? table.slice(1) : table;
  const width = Math.max(1, header?.length ?? 0, ...data.slice(0, 1000).map((r) => r.length));
  const columns = Array.from({ length: width }, (_, i) =>
    header?.[i] ? header[i]! : i === 0 && width === 1 ? 'value' : `column ${i + 1}`,
  );
  const errors: Record<string, Words> = {};
  const pick = (name: 'column' | 'time-column' | 'cost-column', choice: string | undefined) => {
    const index = chosenColumn(choice, header);
    if (index === null || (index !== undefined && index >= width)) {
      errors[name] = msg('reconcile.problems.columnUnknown', {
        choice: String(choice).slice(0, 60),
        columns: columns.map((c) => `"${c}"`).join(', '),
        width,
      });
      return undefined;
    }
    return index;
  };
  const chosen = pick('column', opts.column);
  const fromHeader = valueColumnOf(header);
  const valueColumn = chosen ?? (opts.kind ? columnFor(opts.kind, header) : null) ?? fromHeader?.index ?? 0;
  const timeColumn = pick('time-column', opts.timeColumn) ?? columnFor('time', header);
  const costColumn = pick('cost-column', opts.costColumn) ?? columnFor('cost', header);
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const filled = data.filter((r) => r.some((c) => c.trim() !== ''));
  if (filled.length === 0) return { ok: false, errors: { file: msg('reconcile.problems.noRows') } };
  if (filled.length > MAX_RECONCILE_ROWS)
    return {
      ok: false,
      errors: { file: msg('reconcile.problems.tooManyRows', { rows: filled.length, max: MAX_RECONCILE_ROWS }) },
    };
  const kind =
    opts.kind ??
    (fromHeader && fromHeader.index === valueColumn
      ? fromHeader.kind
      : guessKind(filled.map((r) => r[valueColumn] ?? '')));
  const rows: ParsedRow[] = [];
  data.forEach((cells, i) => {
    if (!cells.some((c) => c.trim() !== '')) return;
    rows.push(readRow(i + 1, cells, { kind, valueColumn, timeColumn, costColumn, tz: opts.tz }));
  });
  return { ok: true, list: { kind, columns, valueColumn, timeColumn, costColumn, rows } };
}

/** A JSON list (`values`: strings, or `{"value", "sent-at", "cost"}`) read as the same rows. */
export function parseListValues(values: readonly unknown[], kind: ReconcileKind, tz: Zone): ListReading {
  if (values.length === 0) return { ok: false, errors: { values: msg('reconcile.problems.noRows') } };
  if (values.length > MAX_RECONCILE_ROWS)
    return {
      ok: false,
      errors: { values: msg('reconcile.problems.tooManyRows', { rows: values.length, max: MAX_RECONCILE_ROWS }) },
    };
  const hasTime = values.some((v) => typeof v === 'object' && v !== null && 'sent-at' in v);
  const hasCost = values.some((v) => typeof v === 'object' && v !== null && 'cost' in v);
  const columns = [kind, ...(hasTime ? ['sent-at'] : []), ...(hasCost ? ['cost'] : [])];
  const shape = {
    kind,
    valueColumn: 0,
    timeColumn: hasTime ? 1 : null,
    costColumn: hasCost ? columns.length - 1 : null,
    tz,
  };
  const rows = values.map((v, i) => {
    const o = typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : { value: v };
    const text = (x: unknown) => (typeof x === 'string' || typeof x === 'number' ? String(x) : '');
    const cells = [text(o.value), ...(hasTime ? [text(o['sent-at'])] : []), ...(hasCost ? [text(o.cost)] : [])];
    return readRow(i + 1, cells, shape);
  });
  return {
    ok: true,
    list: { kind, columns, valueColumn: 0, timeColumn: shape.timeColumn, costColumn: shape.costColumn, rows },
  };
}

function readRow(
  row: number,
  cells: string[],
  shape: { kind: ReconcileKind; valueColumn: number; timeColumn: number | null; costColumn: number | null; tz: Zone },
): ParsedRow {
  const out: ParsedRow = { row, cells, value: null, span: null, cost: null, problem: null };
  const value = readValue(shape.kind, cells[shape.valueColumn] ?? '');
  if (!value.ok) return { ...out, problem: { code: value.code, ...(value.values ? { values: value.values } : {}) } };
  const timeCell = shape.timeColumn === null ? '' : (cells[shape.timeColumn] ?? '').trim();
  const span = timeCell === '' ? null : readSendTime(timeCell, shape.tz);
  if (timeCell !== '' && span === null)
    return { ...out, problem: { code: 'not-a-time', values: { cell: timeCell.slice(0, 40) } } };
  const cost = shape.costColumn === null ? null : readCost(cells[shape.costColumn] ?? '');
  if (cost === 'bad')
    return { ...out, problem: { code: 'not-a-cost', values: { cell: (cells[shape.costColumn!] ?? '').slice(0, 30) } } };
  return { ...out, value: value.value, span, cost };
}
