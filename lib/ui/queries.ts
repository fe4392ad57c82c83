/**
 * One queryOptions factory (and one mutation factory) per resource of the dashboard's API, every
 * request through the one helper (api-client.ts). The key of a search is its canonical query
 * string, so the same search asked twice (or from another component) is one entry.
 */
import { keepPreviousData, mutationOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
import { isActiveExportState, type ExportEstimate, type ExportJob, type ExportList, type ExportQuery } from '@/lib/api/exports';
import type { MirrorSettingsInput, MirrorState } from '@/lib/api/mirror';
import type { InsightsAnswer } from '@/lib/api/insights';
import type { QuotaSnapshot, SearchPlan, TransactionDetail, TransactionsPage } from '@/lib/api/types';
import type { CdrFieldKey } from '@/lib/cdr/fields';
import type { Zone } from '@/lib/time/zones';
import { apiRequest, ApiError, getJson } from './api-client';
import { API_PATHS } from './paths';

export const QUOTA_KEY = ['quota'] as const;
const PLAN_KEY = ['plan'] as const;
export const EXPORTS_KEY = ['exports'] as const;
export const MIRROR_KEY = ['mirror'] as const;

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
        const page = await getJson<TransactionsPage>(`${API_PATHS.transactions}?${key}`, signal);
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
        return await getJson<TransactionDetail>(API_PATHS.transaction(trxId, tz), signal);
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
    queryFn: ({ signal }) => getJson<QuotaSnapshot>(API_PATHS.quota, signal),
    refetchInterval: QUOTA_REFRESH_MS,
    refetchIntervalInBackground: false,
    staleTime: 5_000,
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
    queryKey: [...PLAN_KEY, params] as const,
    queryFn: ({ signal }) => getJson<SearchPlan>(`${API_PATHS.plan}?${params}`, signal),
    staleTime: 5_000,
    refetchInterval: (query) => (query.state.data?.source === 'cache' ? PLAN_CACHE_RECHECK_MS : false),
    placeholderData: keepPreviousData,
  });
}

/** The badge looks every ~10 s while an export runs; the exports page, being watched, every ~3 s. */
export const BADGE_POLL_MS = 10_000;
export const PAGE_POLL_MS = 3_000;

export function exportsQueryOptions(pollMs: number = BADGE_POLL_MS) {
  return queryOptions({
    queryKey: EXPORTS_KEY,
    queryFn: ({ signal }) => getJson<ExportList>(API_PATHS.exports, signal),
    // Polls only while something runs: the endpoint is free, but an idle tab should stay idle.
    refetchInterval: (query) => (query.state.data?.jobs.some((j) => isActiveExportState(j.state)) ? pollMs : false),
    refetchIntervalInBackground: false,
    staleTime: 2_000,
  });
}

/** One job, polled while it has work left (the CSV button waits on a small export this way). */
export function exportQueryOptions(id: string, pollMs: number) {
  return queryOptions({
    queryKey: [...EXPORTS_KEY, id] as const,
    queryFn: ({ signal }) => getJson<ExportJob>(API_PATHS.export(id), signal),
    refetchInterval: (query) => (query.state.data && !isActiveExportState(query.state.data.state) ? false : pollMs),
  });
}

/** The body of POST /api/exports: the query's parameters, and the columns. */
export type ExportBody = ExportQuery & { columns: CdrFieldKey[] };

export function estimateExportMutation() {
  return mutationOptions({
    mutationFn: (body: ExportBody) => apiRequest<ExportEstimate>('POST', API_PATHS.exports, { body: { ...body, dryRun: true } }),
  });
}

export function createExportMutation(client: QueryClient) {
  return mutationOptions({
    mutationFn: (body: ExportBody) => apiRequest<ExportJob>('POST', API_PATHS.exports, { body }),
    onSuccess: () => void client.invalidateQueries({ queryKey: EXPORTS_KEY }),
  });
}

/** Cancels a running export, or deletes a finished one. */
export function cancelExportMutation(client: QueryClient) {
  return mutationOptions({
    mutationFn: (id: string) => apiRequest<ExportJob | null>('DELETE', API_PATHS.export(id)),
    onSettled: () => void client.invalidateQueries({ queryKey: EXPORTS_KEY }),
  });
}

/** The History page looks every ~3 s while the copy is under way (or waiting to go on), not otherwise. */
export const MIRROR_POLL_MS = 3_000;

export function mirrorQueryOptions(pollMs: number = MIRROR_POLL_MS) {
  return queryOptions({
    queryKey: MIRROR_KEY,
    queryFn: async ({ signal, client }) => {
      const before = client.getQueryData<MirrorState>(MIRROR_KEY);
      const state = await getJson<MirrorState>(API_PATHS.mirror, signal);
      // The copy spends the account's calls: once it has, the meter (and what people have left) is behind.
      if (before && before.callsToday !== state.callsToday) void client.invalidateQueries({ queryKey: QUOTA_KEY });
      return state;
    },
    // A complete, paused or stopped copy changes only when someone changes it (the mutations below).
    refetchInterval: (query) => (query.state.data?.state === 'syncing' || query.state.data?.state === 'waiting' ? pollMs : false),
    refetchIntervalInBackground: false,
    staleTime: 2_000,
  });
}

/** What a search costs and what Insights counts depend on what the local history holds: ask again after any change to it. */
function afterMirrorChange(client: QueryClient): void {
  void client.invalidateQueries({ queryKey: PLAN_KEY });
  void client.invalidateQueries({ queryKey: ['insights'] });
}

/** PUT /api/mirror: start, pause, the start day, copying while signed out; answers the new state. */
export function updateMirrorMutation(client: QueryClient) {
  return mutationOptions({
    mutationFn: (input: MirrorSettingsInput) => apiRequest<MirrorState>('PUT', API_PATHS.mirror, { body: input }),
    onSuccess: (state) => {
      client.setQueryData(MIRROR_KEY, state);
      afterMirrorChange(client);
    },
  });
}

/** DELETE /api/mirror: forgets the copy, then reads the state again. */
export function deleteMirrorMutation(client: QueryClient) {
  return mutationOptions({
    mutationFn: () => apiRequest<null>('DELETE', API_PATHS.mirror),
    onSettled: async () => {
      afterMirrorChange(client);
      await client.invalidateQueries({ queryKey: MIRROR_KEY });
    },
  });
}

/** While days are being copied the Insights page looks again, so the coverage grows on screen. */
export const INSIGHTS_POLL_MS = 10_000;

/** GET /api/insights for a query (`key`: its canonical query string, as a search's). */
export function insightsQueryOptions(key: string, poll: boolean) {
  return queryOptions({
    queryKey: ['insights', key] as const,
    queryFn: ({ signal }) => getJson<InsightsAnswer>(`${API_PATHS.insights}?${key}`, signal),
    placeholderData: keepPreviousData,
    refetchInterval: poll ? INSIGHTS_POLL_MS : false,
  });
}
