/**
 * The upstream's failures as the browser (and any script) tells them apart: the problem types it
 * answers that a page acts on. Browser-safe.
 */
/** A 401 of the upstream's own, to a query made with a token just renewed: the session here is alive. */
export const UPSTREAM_UNAUTHORIZED_PROBLEM = '/problems/upstream-unauthorized';
