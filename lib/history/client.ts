/**
 * What the pages' components may use of history in the browser only: React Query options and URL
 * parsers (the server's React has no context for them). Everything else in this folder is its own.
 */
export { deleteHistoryMutation, historyQueryOptions, updateHistoryMutation } from './queries';
