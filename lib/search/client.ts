/**
 * What the pages' components may use of search in the browser only: React Query options, URL
 * parsers and the page URL's hook (the server's React has no context for them). Everything else in
 * this folder is its own.
 */
export { pageUrlParsers } from './page-url-parsers';
export { planQueryOptions, transactionsQueryOptions } from './queries';
export { useSearchUrl, type SearchUrl, type SearchUrlOptions } from './use-search-url';
