/**
 * nuqs parsers for the page URL of a query (lib/query/page-url.ts). All plain strings on purpose:
 * the values are judged together by the query parser (a 40-day range is wrong only as a pair),
 * never one by one.
 */
import { parseAsString } from 'nuqs';
import { PAGE_URL_PARAMS } from '../query/page-url';

export const pageUrlParsers: Record<string, typeof parseAsString> = Object.fromEntries(
  PAGE_URL_PARAMS.map((name) => [name, parseAsString]),
);
