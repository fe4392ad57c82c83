/**
 * Which column of an upload holds what: the value (a trx_id, a reference, a number), the send time
 * and an expected cost, found by the header's names as people and consoles write them, in English
 * and Japanese (../../shared glossary: トランザクションID, クライアント参照, 宛先番号, 送信日時, 料金),
 * or as the person chose it (a header name or a column number). Pure.
 */
import { halfWidth } from '../cdr/typed-text';
import type { ReconcileKind } from './api';

export type ColumnRole = ReconcileKind | 'time' | 'cost';

const NAMES: Record<ColumnRole, readonly string[]> = {
  trx_id: [
    'trx id',
    'trxid',
    'transaction id',
    'transactionid',
    'message id',
    'messageid',
    'msg id',
    'トランザクションid',
    'メッセージid',
  ],
  'client-reference': [
    'ref',
    'reference',
    'client reference',
    'clientreference',
    'client ref',
    'clientref',
    'クライアント参照',
    '参照id',
    '参照',
  ],
  da: [
    'da',
    'to',
    'to address',
    'destination',
    'number',
    'phone',
    'phone number',
    'msisdn',
    'mobile',
    'recipient',
    '宛先',
    '宛先番号',
    '電話番号',
    '送信先電話番号',
    '携帯番号',
  ],
  time: [
    'sent at',
    'sent',
    'send time',
    'sent time',
    'time',
    'timestamp',
    'date',
    'datetime',
    'date time',
    'date received',
    'received',
    'submitted',
    'created at',
    '送信日時',
    '日時',
    '送信時刻',
    '日付',
    '受付日時',
  ],
  cost: ['cost', 'price', 'expected cost', 'amount', 'charge', '料金', '金額', '単価', '費用'],
};

/** A header cell as compared: folded, lower case, `_`/`-`/spaces as one space. */
export function headerKey(cell: string): string {
  return halfWidth(cell)
    .toLowerCase()
    .replace(/[\s_\-・]+/g, ' ')
    .trim();
}

const ROLE_OF = new Map<string, ColumnRole>(
  (Object.entries(NAMES) as [ColumnRole, readonly string[]][]).flatMap(([role, names]) =>
    names.map((n) => [n, role] as const),
  ),
);

/** The role a header cell names, if any. */
export function roleOfHeader(cell: string): ColumnRole | null {
  return ROLE_OF.get(headerKey(cell)) ?? null;
}

/** Whether a first row looks like a header: one of its cells names a known column. */
export function looksLikeHeader(cells: readonly string[]): boolean {
  return cells.some((c) => roleOfHeader(c) !== null);
}

/**
 * The column a person chose: a header's name (as folded) or a column number from 1. Null when it
 * names none; `undefined` when nothing was chosen.
 */
export function chosenColumn(choice: string | undefined, header: readonly string[] | null): number | null | undefined {
  if (choice === undefined || choice.trim() === '') return undefined;
  const asNumber = halfWidth(choice).trim();
  if (/^\d+$/.test(asNumber)) {
    const index = Number(asNumber) - 1;
    return index >= 0 ? index : null;
  }
  if (!header) return null;
  const key = headerKey(choice);
  const index = header.findIndex((h) => headerKey(h) === key);
  return index >= 0 ? index : null;
}

/** The first column the header names for `role`, or null. */
export function columnFor(role: ColumnRole, header: readonly string[] | null): number | null {
  if (!header) return null;
  const index = header.findIndex((h) => roleOfHeader(h) === role);
  return index >= 0 ? index : null;
}

/** The first column the header names as a list's value, and its kind. */
export function valueColumnOf(header: readonly string[] | null): { index: number; kind: ReconcileKind } | null {
  if (!header) return null;
  for (const kind of ['trx_id', 'client-reference', 'da'] as const) {
    const index = columnFor(kind, header);
    if (index !== null) return { index, kind };
  }
  return null;
}
