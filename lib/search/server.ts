import 'server-only';
/**
 * What other features and the composition root may use of search on the server. Everything else in this folder is its own.
 */
export { PAGE_VARIES_BY, csvPageResponse, csvRequest, wantsCsv } from './csv-page';
export { TransactionsService } from './search-service';
export { etagOf, notModified } from './etag';
export { pageJson } from './page-json';
