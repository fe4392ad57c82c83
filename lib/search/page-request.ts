import 'server-only';
/**
 * What GET /api/transactions asks for, read before anything is spent: the search query (the
 * codec's, lib/query/request.ts) and, when the client prefers CSV, the CSV's columns and style.
 */
import type { ParseResult, TransactionsQuery } from '../query/query';
import { searchQueryOf, type ReaderAccount } from '../query/request';
import { csvRequest, type CsvChoice } from './csv-page';

export interface PageRequest {
  query: TransactionsQuery;
  /** null: the JSON answer. */
  csv: CsvChoice | null;
}

export function pageRequest(req: Request, account: ReaderAccount): ParseResult<PageRequest> {
  // `columns` and `excel`: the CSV's (Accept: text/csv).
  const parsed = searchQueryOf(req, account, ['columns', 'excel']);
  if (!parsed.ok) return parsed;
  const params = new URL(req.url).searchParams;
  return { ok: true, query: { query: parsed.query, csv: csvRequest(req, params.get('columns'), params.get('excel')) } };
}
