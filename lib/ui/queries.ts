/**
 * One queryOptions factory per resource of the dashboard's API. The key of a search is its
 * canonical query string, so the same search asked twice (or from another component) is one entry.
 */
import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import type { QuotaSnapshot, SearchPlan, TransactionDetail, TransactionsPage } from '@/lib/api/types';
import type { Zone } from '@/lib/time/zones';
import { ApiError, getJson } from './api-client';

export const QUOTA_KEY = ['quota'] as const;
const PLAN_KEY = ['plan'] as const;

/** Every answer of the API that touches the upstream says what is left: keep the meter in step. */
function afterUpstreamAnswer(client: QueryClient, quota: QuotaSnapshot | undefined): void {
  if (quota) client.setQueryData(QUOTA_KEY, quota);
  else void client.invalidateQueries({ queryKey: QUOTA_KEY });
}

/** `key` is the canonical query string (see searchStateOf). */
export function transactionsQueryOptions(key: string) {
  return queryOptions({
    queryKey: ['transactions', key] as const,
    queryFn: async ({ signal, client }) => {
      try {
        const page = await getJson<TransactionsPage>(`/api/transactions?${key}`, signal);
        afterUpstreamAnswer(client, page._meta?.quota);
        // What a search costs has just changed (this one is cached now, a call was spent).
        void client.invalidateQueries({ queryKey: PLAN_KEY });
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

export function transactionQueryOptions(trxId: string, tz: Zone) {
  return queryOptions({
    queryKey: ['transaction', trxId, tz] as const,
    queryFn: async ({ signal, client }) => {
      try {
        return await getJson<TransactionDetail>(`/api/transactions/${encodeURIComponent(trxId)}?tz=${tz}`, signal);
      } finally {
        void client.invalidateQueries({ queryKey: QUOTA_KEY });
      }
    },
    staleTime: Infinity,
  });
}

/** The meter refreshes itself every ~15 s while the page is visible; the endpoint costs no call. */
export const QUOTA_REFRESH_MS = 15_000;

export function quotaQueryOptions() {
  return queryOptions({
    queryKey: QUOTA_KEY,
    queryFn: ({ signal }) => getJson<QuotaSnapshot>('/api/quota', signal),
    refetchInterval: QUOTA_REFRESH_MS,
    refetchIntervalInBackground: false,
    staleTime: 5_000,
  });
}

/** The price of a search before it is made (`params` = the search's canonical query string). */
export function planQueryOptions(params: string) {
  return queryOptions({
    queryKey: [...PLAN_KEY, params] as const,
    queryFn: ({ signal }) => getJson<SearchPlan>(`/api/plan?${params}`, signal),
    staleTime: 5_000,
    placeholderData: keepPreviousData,
  });
}
