/**
 * What a route hands a service, made from what a client sends: services take only parsed input
 * (lib/root/with-account.ts `query`), so the tests and benchmarks that call them parse it first, by
 * the same parsers the routes use. Throws on input the route would answer with a 400.
 */
import { parseExportRequest, type ExportRequest } from '../../lib/exports/export-request';
import { parseQuery, type ParseOptions, type ParseResult, type TransactionsQuery } from '../../lib/query/query';

function parsed<Q>(result: ParseResult<Q>): Q {
  if (!result.ok) throw new Error(`the route would refuse this: ${JSON.stringify(result.errors)}`);
  return result.query;
}

/** A search query, as GET /api/transactions, /api/plan and /api/insights read it. */
export function searchQuery(params: Record<string, string>, options: ParseOptions = {}): TransactionsQuery {
  return parsed(parseQuery(params, options));
}

/** The body of POST /api/exports, as its route reads it for a session signed in for `enterpriseId`. */
export function exportRequest(body: Record<string, unknown>, enterpriseId: string | null = null): ExportRequest {
  const result = parseExportRequest(body, enterpriseId);
  if (!result.ok) throw new Error(`the route would refuse this: ${JSON.stringify(result.errors)}`);
  return result.request;
}
