/**
 * What the pages' components may use of lookup in the browser only: React Query options. Everything
 * else in this folder is its own.
 */
export { transactionQueryOptions } from './queries';
