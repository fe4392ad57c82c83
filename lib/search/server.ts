import 'server-only';
/**
 * What other features and the composition root may use of search on the server. Everything else in this folder is its own.
 */
export { PAGE_VARIES_BY, csvPageResponse, wantsCsv } from './csv-page';
export { pageRequest, type PageRequest } from './page-request';
export { TransactionsService } from './search-service';
export { presentCdr } from './present';
export { Planner, onlyLocalCanAnswer, type PlannedQuery } from './planner';
export { type Plan } from './plan';
export { etagOf, notModified } from './etag';
export { pageJson } from './page-json';
