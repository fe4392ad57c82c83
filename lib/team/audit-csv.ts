/**
 * The audit log as CSV, with the dashboard's cell rules (lib/csv: quoting, formulas neutralised, a
 * BOM for Excel): one line an entry, newest first, as the audit page shows them.
 */
import { neutraliseCell } from '../csv/csv';
import type { AuditEntry } from './api';

const COLUMNS = [
  'at',
  'actor',
  'actorName',
  'role',
  'action',
  'account',
  'trxId',
  'reason',
  'query',
  'detail',
] as const;

export function auditCsv(entries: readonly AuditEntry[]): string {
  let text = `\uFEFF${COLUMNS.join(',')}\r\n`;
  for (const e of entries) text += `${COLUMNS.map((c) => neutraliseCell(String(e[c] ?? ''))).join(',')}\r\n`;
  return text;
}
