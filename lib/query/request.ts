/**
 * How a route reads its query from a request: given to the route wrapper (`withAccount(handler,
 * { query })`, lib/root/with-account.ts), which runs it before the handler and hands the handler the
 * parsed value, or answers 400 with each broken rule by parameter — before anything is spent. A
 * feature whose request holds more than the query (an export's columns, a CSV's) writes its own
 * reader around the codec's.
 */
import { normaliseTrxId, trxIdProblem } from '../cdr/trx-id';
import type { Zone } from '../time/zones';
import {
  noFieldErrors,
  parseQuery,
  parseZone,
  unexpectedParams,
  type ParseResult,
  type TransactionsQuery,
} from './query';

/** What a reader knows of the request's signed-in account: the enterprise its session is for. */
export interface ReaderAccount {
  enterpriseId: string | null;
}

/** Reads a route's query (a route's own readers may take more: the services, the route's context). */
export type QueryReader<Q> = (req: Request, account: ReaderAccount) => ParseResult<Q> | Promise<ParseResult<Q>>;

/**
 * The search query in a URL's parameters (GET /api/plan, /api/insights, and /api/transactions with
 * its CSV's): any other parameter, and one given twice, is an error — a misspelt filter would
 * otherwise be a search without it, paid for with a call.
 */
export function searchQueryOf(req: Request, account: ReaderAccount, alsoAllowed: readonly string[] = []) {
  return parseQuery(new URL(req.url).searchParams, { alsoAllowed, sessionEnterpriseId: account.enterpriseId });
}

/** The reader of a search query in the URL, the parameters besides it that the route reads itself allowed. */
export function searchQuery(alsoAllowed: readonly string[] = []): QueryReader<TransactionsQuery> {
  return (req, account) => searchQueryOf(req, account, alsoAllowed);
}

/** GET /api/transactions/<trx_id>: the record's id, as the records write it, and the zone to show it in. */
export interface RecordQuery {
  trxId: string;
  tz: Zone;
}

/**
 * The record route's query: the id in its path (checked before any call) and `tz`, once — a
 * misspelt or repeated parameter is said, not ignored, as on the list's route.
 */
export async function recordQuery(
  req: Request,
  _account: ReaderAccount,
  _services: unknown,
  context: { params: Promise<{ trxId: string }> },
): Promise<ParseResult<RecordQuery>> {
  const { trxId } = await context.params;
  const errors = noFieldErrors();
  const problem = trxIdProblem(trxId);
  if (problem) errors.trx_id = problem;
  const params = new URL(req.url).searchParams;
  unexpectedParams(params, ['tz'], errors);
  const tz = parseZone(params.get('tz'), errors);
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, query: { trxId: normaliseTrxId(trxId), tz } };
}
