/**
 * What the pages' components may use of reconcile in the browser only: React Query options and URL
 * parsers (the server's React has no context for them). Everything else in this folder is its own.
 */
export {
  RECONCILE_POLL_MS,
  createReconciliationMutation,
  forgetReconciliationMutation,
  reconcileRowsQueryOptions,
  reconciliationQueryOptions,
  reconciliationsQueryOptions,
  startReconciliationMutation,
  type RowsView,
} from './queries';
export { reconcileUrlParsers } from './url-parsers';
