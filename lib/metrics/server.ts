import 'server-only';
/**
 * What other features and the composition root may use of metrics on the server. Everything else in this folder is its own.
 */
export { installFigures, type FigureSources, type QuotaFigure } from './figures';
export {
  countCacheAnswer,
  countUpstreamCall,
  observeGovernorWait,
  observeHttpRequest,
  type CacheResult,
  type CallOutcome,
} from './record';
export { metrics } from './registry';
export { routeLabeller } from './route-label';
export { bearerMatches, scrapeResponse } from './scrape';
