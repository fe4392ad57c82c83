/**
 * Exports in the browser: the list and one job (polled while they run), and the mutations that
 * estimate, create and cancel them.
 */
import { mutationOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
import type { CdrFieldKey } from '../cdr/fields';
import { apiRequest, getJson } from '../http/api-client';
import { API_PATHS } from '../http/paths';
import { QUERY_KEYS } from '../http/query-keys';
import { isActiveExportState, type ExportEstimate, type ExportJob, type ExportList, type ExportQuery } from './api';

/** The badge looks every ~10 s while an export runs; the exports page, being watched, every ~3 s. */
export const BADGE_POLL_MS = 10_000;
export const PAGE_POLL_MS = 3_000;

export function exportsQueryOptions(pollMs: number = BADGE_POLL_MS) {
  return queryOptions({
    queryKey: QUERY_KEYS.exports,
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
    queryKey: [...QUERY_KEYS.exports, id] as const,
    queryFn: ({ signal }) => getJson<ExportJob>(API_PATHS.export(id), signal),
    refetchInterval: (query) => (query.state.data && !isActiveExportState(query.state.data.state) ? false : pollMs),
  });
}

/** The body of POST /api/exports: the query's parameters, and the columns. */
export type ExportBody = ExportQuery & { columns: CdrFieldKey[] };

export function estimateExportMutation() {
  return mutationOptions({
    mutationFn: (body: ExportBody) =>
      apiRequest<ExportEstimate>('POST', API_PATHS.exports, { body: { ...body, dryRun: true } }),
  });
}

export function createExportMutation(client: QueryClient) {
  return mutationOptions({
    mutationFn: (body: ExportBody) => apiRequest<ExportJob>('POST', API_PATHS.exports, { body }),
    onSuccess: () => void client.invalidateQueries({ queryKey: QUERY_KEYS.exports }),
  });
}

/** Cancels a running export, or deletes a finished one. */
export function cancelExportMutation(client: QueryClient) {
  return mutationOptions({
    mutationFn: (id: string) => apiRequest<ExportJob | null>('DELETE', API_PATHS.export(id)),
    onSettled: () => void client.invalidateQueries({ queryKey: QUERY_KEYS.exports }),
  });
}
