import 'server-only';
/**
 * What other features and the composition root may use of insights on the server. Everything else in this folder is its own.
 */
export { InsightsService } from './insights-service';
export { createInsightsStore, type InsightsStore } from './insights-store';
