import 'server-only';
/**
 * What this instance counts, each at the one place the event happens: an upstream call and its wait
 * (lib/upstream/gateway.ts), where a page or record was answered from (lib/search), a request's
 * answer (the HTTP server's hook, lib/root/startup.ts).
 */
import { metrics } from './registry';
import { routeLabelOf } from './route-label';

/** How an upstream call ended: its status class, or why it has none. */
export type CallOutcome = '2xx' | '3xx' | '4xx' | '429' | '5xx' | 'timeout' | 'network' | 'aborted';

export function countUpstreamCall(cls: string, outcome: CallOutcome): void {
  metrics().upstreamCalls.inc({ class: cls, outcome });
}

export function observeGovernorWait(cls: string, seconds: number): void {
  metrics().governorWait.observe({ class: cls }, seconds);
}

export type CacheResult = 'hit' | 'miss' | 'local';

/**
 * An answer of a page or a record, by its `_meta.source`: the local history is `local`, the cache
 * alone a `hit`, anything read from the upstream for it a `miss` (a page composed of the local
 * history and the cache is a hit: it cost nothing).
 */
export function countCacheAnswer(source: 'upstream' | 'cache' | 'history' | 'mixed', calls: number): void {
  const result: CacheResult =
    source === 'history' ? 'local' : source === 'cache' ? 'hit' : source === 'upstream' || calls > 0 ? 'miss' : 'hit';
  metrics().cacheRequests.inc({ result });
}

/** A request answered: `url` as asked (only its path's pattern is kept). */
export function observeHttpRequest(url: string | undefined, status: number, seconds: number): void {
  const pathname = (url ?? '/').split('?', 1)[0] ?? '/';
  metrics().httpDuration.observe({ route: routeLabelOf(pathname), status: String(status) }, seconds);
}
