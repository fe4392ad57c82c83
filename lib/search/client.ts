/**
 * What the pages' components may use of search in the browser only: React Query options and URL
 * parsers (the server's React has no context for them). Everything else in this folder is its own.
 */
export { pageUrlParsers } from './page-url-parsers';
export { planQueryOptions, transactionsQueryOptions } from './queries';
