import { msg } from '../i18n/message';
import 'server-only';
/**
 * `Accept: text/csv` on GET /api/transactions answers that page as CSV (the same records, zone and
 * order as the JSON answer), so a script or the "rows on screen" download needs no other endpoint.
 */
import Negotiator from 'negotiator';
import type { TransactionsPage } from './api';
import type { CdrFieldKey } from '../cdr/fields';
import { parseColumns, recordsToCsv } from '../csv/csv';
import { csvFileName } from '../csv/file-name';
import { attachmentDisposition } from '../http/content-disposition';
import { badRequest } from '../http/problem';
import type { TransactionsQuery } from '../query/query';

/**
 * Whether the client prefers CSV to JSON, by its Accept header's weights (`text/csv;q=0` is a no);
 * JSON when it ranks both alike or names neither.
 */
export function wantsCsv(req: Request): boolean {
  const accept = req.headers.get('accept');
  if (!accept) return false;
  return new Negotiator({ headers: { accept } }).mediaType(['application/json', 'text/csv']) === 'text/csv';
}

/** The CSV's columns of `columns=`, checked before the page is asked for (a wrong one spends no call). */
function csvColumns(columnsParam: string | null): CdrFieldKey[] {
  const parsed = parseColumns(columnsParam);
  if ('error' in parsed) throw badRequest({ columns: parsed.error });
  return parsed.columns;
}

/** How a CSV answer is written: its columns, and whether for Excel (lib/csv/csv-format.ts). */
export interface CsvChoice {
  columns: CdrFieldKey[];
  excel: boolean;
}

function excelOf(excelParam: string | null): boolean {
  if (excelParam === null || excelParam === 'false') return false;
  if (excelParam === 'true') return true;
  throw badRequest({ excel: msg('query.request.excelValue', { value: excelParam.slice(0, 20) }) });
}

/**
 * The CSV's columns and style when the request asks for CSV; null for JSON, which takes neither
 * `columns` nor `excel` (given anyway, the script meant CSV and would get JSON: refused, before any
 * call).
 */
export function csvRequest(
  req: Request,
  columnsParam: string | null,
  excelParam: string | null = null,
): CsvChoice | null {
  if (wantsCsv(req)) return { columns: csvColumns(columnsParam), excel: excelOf(excelParam) };
  if (columnsParam !== null)
    throw badRequest({
      columns: msg('query.request.columnsWithoutCsv'),
    });
  if (excelParam !== null)
    throw badRequest({
      excel: msg('query.request.excelWithoutCsv'),
    });
  return null;
}

/** The list's URL answers JSON or CSV by `Accept`: a cache must keep the two apart. */
export const PAGE_VARIES_BY = 'Accept';

export function csvPageResponse(page: TransactionsPage, query: TransactionsQuery, csv: CsvChoice): Response {
  const body = recordsToCsv(page._embedded.cdrs as Record<string, unknown>[], csv.columns, csv.excel);
  const name = csvFileName(query, { page: query.page });
  return new Response(body, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': attachmentDisposition(name),
      'X-Total-Found': String(page._embedded.total_found),
      'X-Upstream-Calls': String(page._meta.calls),
      Vary: PAGE_VARIES_BY,
    },
  });
}
