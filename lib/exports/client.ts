/**
 * What the pages' components may use of exports in the browser only: React Query options and URL
 * parsers (the server's React has no context for them). Everything else in this folder is its own.
 */
export {
  PAGE_POLL_MS,
  cancelExportMutation,
  createExportMutation,
  estimateExportMutation,
  exportQueryOptions,
  exportsQueryOptions,
} from './queries';
