/**
 * What other features and the pages may use of upstream, safe in the browser. Everything else in this folder is its own.
 */
export { UPSTREAM_UNAUTHORIZED_PROBLEM } from './api';
