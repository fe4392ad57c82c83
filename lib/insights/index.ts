/**
 * What other features and the pages may use of insights, safe in the browser. Everything else in this folder is its own.
 */
export { readsByHour, type InsightsAnswer, type InsightsCoverage, type Outcome } from './api';
export { bucketBounds, formatLatency, formatPrice, formatRate, shortDay } from './format';
export { countedQuery, countedRun, drillHref, type Drill } from './links';
