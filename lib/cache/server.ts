import 'server-only';
/**
 * What other features and the composition root may use of cache on the server. Everything else in this folder is its own.
 */
export { STALE_GRACE_MS, cachePolicy, type CachePolicy } from './cache-policy';
export { withMemoryCache } from './memory-page-cache';
export { createPageCache, type CachedPage, type PageCacheStore } from './page-cache-store';
export { CachedPages } from './cached-pages';
export { UpstreamPages, canStandIn, staleReason, type SliceResult } from './upstream-pages';
