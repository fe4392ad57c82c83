/**
 * What other features and the pages may use of background, safe in the browser. Everything else in this folder is its own.
 */
export { BackgroundLoop } from './background-loop';
export { MAX_FAILURES, backoffMs } from './background-retry';
