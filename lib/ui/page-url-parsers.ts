/**
 * nuqs parsers for the transactions page URL. All plain strings on purpose: the values are judged
 * together by parseTransactionsQuery (a 40-day range is wrong only as a pair), never one by one.
 */
import { parseAsString } from 'nuqs';
import { QUERY_PARAMS, ROW_PARAM, type QueryParam } from './url-state';

export const pageUrlParsers = Object.fromEntries([...QUERY_PARAMS, ROW_PARAM].map((name) => [name, parseAsString])) as Record<
  QueryParam | typeof ROW_PARAM,
  typeof parseAsString
>;
