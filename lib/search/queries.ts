/**
 * A search's queries in the browser: its page (keyed by the canonical query string, so the same
 * search asked twice, or from another component, is one entry) and its price.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { afterUpstreamAnswer } from '../governor/client';
import { ApiError, getJson } from '../http/api-client';
import { API_PATHS } from '../http/paths';
import { QUERY_KEYS } from '../http/query-keys';
import type { SearchPlan, TransactionsPage } from './api';

/** `key` is the canonical query string (see searchStateOf). */
export function transactionsQueryOptions(key: string) {
  return queryOptions({
    queryKey: [...QUERY_KEYS.transactions, key] as const,
    queryFn: async ({ signal, client }) => {
      try {
        const page = await getJson<TransactionsPage>(`${API_PATHS.transactions}?${key}`, signal);
        afterUpstreamAnswer(client, page._meta?.quota);
        // What a search costs has just changed (this one is cached now, a call was spent).
        void client.invalidateQueries({ queryKey: QUERY_KEYS.plan });
        return page;
      } catch (err) {
        if (err instanceof ApiError) afterUpstreamAnswer(client, undefined);
        throw err;
      }
    },
    // Pages never flash empty: the previous page stays on screen (dimmed) while the next one loads.
    placeholderData: keepPreviousData,
    // A search is re-asked only when the user asks (Search again, retry); the server decides
    // whether that costs a call.
    staleTime: Infinity,
  });
}

/**
 * While the price says "from cache", it is asked again this often: a cached page of a recent range
 * stops being fresh after CACHE_RECENT_TTL_SECONDS, and a form left open must not go on promising
 * a free search (asking costs no upstream call).
 */
export const PLAN_CACHE_RECHECK_MS = 10_000;

/** The price of a search before it is made (`params` = the search's canonical query string). */
export function planQueryOptions(params: string) {
  return queryOptions({
    queryKey: [...QUERY_KEYS.plan, params] as const,
    queryFn: ({ signal }) => getJson<SearchPlan>(`${API_PATHS.plan}?${params}`, signal),
    staleTime: 5_000,
    refetchInterval: (query) => (query.state.data?.source === 'cache' ? PLAN_CACHE_RECHECK_MS : false),
    placeholderData: keepPreviousData,
  });
}
