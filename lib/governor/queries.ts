/**
 * The quota as the browser asks for it (GET /api/quota), and the meter kept in step with every
 * answer that touched the upstream.
 */
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { getJson } from '../http/api-client';
import { API_PATHS } from '../http/paths';
import { QUERY_KEYS } from '../http/query-keys';
import type { QuotaSnapshot } from './api';

/** Every answer of the API that touches the upstream says what is left: keep the meter in step. */
export function afterUpstreamAnswer(client: QueryClient, quota: QuotaSnapshot | undefined): void {
  if (quota) client.setQueryData(QUERY_KEYS.quota, quota);
  else void client.invalidateQueries({ queryKey: QUERY_KEYS.quota });
}

/** The meter refreshes itself every ~15 s while the page is visible; the endpoint costs no call. */
export const QUOTA_REFRESH_MS = 15_000;

export function quotaQueryOptions() {
  return queryOptions({
    queryKey: QUERY_KEYS.quota,
    queryFn: ({ signal }) => getJson<QuotaSnapshot>(API_PATHS.quota, signal),
    refetchInterval: QUOTA_REFRESH_MS,
    refetchIntervalInBackground: false,
    staleTime: 5_000,
  });
}
