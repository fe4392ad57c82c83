/**
 * How a route reads its query from a request: given to the route wrapper (`withAccount(handler,
 * { query })`, lib/root/with-account.ts), which runs it before the handler and hands the handler the
 * parsed value, or answers 400 with each broken rule by parameter — before anything is spent. A
 * feature whose request holds more than the query (an export's columns, a CSV's) writes its own
 * reader around the codec's.
 */
import { parseQuery, type ParseResult, type TransactionsQuery } from './query';

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
