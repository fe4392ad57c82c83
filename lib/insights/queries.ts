/**
 * Insights in the browser: the aggregates of a query, polled while days are being copied.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { getJson } from '../http/api-client';
import { API_PATHS } from '../http/paths';
import { QUERY_KEYS } from '../http/query-keys';
import type { InsightsAnswer } from './api';

/** While days are being copied the Insights page looks again, so the coverage grows on screen. */
export const INSIGHTS_POLL_MS = 10_000;

/** GET /api/insights for a query (`key`: its canonical query string, as a search's). */
export function insightsQueryOptions(key: string, poll: boolean) {
  return queryOptions({
    queryKey: [...QUERY_KEYS.insights, key] as const,
    queryFn: ({ signal }) => getJson<InsightsAnswer>(`${API_PATHS.insights}?${key}`, signal),
    placeholderData: keepPreviousData,
    refetchInterval: poll ? INSIGHTS_POLL_MS : false,
  });
}
