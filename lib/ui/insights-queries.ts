/**
 * The Insights page's reads and its one write: GET /api/insights for a query (its key is the
 * canonical query string, as a search's is), and the local history's state and start
 * (GET/PUT /api/mirror) for the offer to copy a range that has none.
 */
import { keepPreviousData, mutationOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
import type { InsightsAnswer } from '@/lib/api/insights';
import type { MirrorSettingsInput, MirrorState } from '@/lib/api/mirror';
import { apiRequest, getJson } from './api-client';
import { API_PATHS } from './paths';

export const MIRROR_KEY = ['mirror'] as const;

/** While days are being copied the page looks again, so the coverage grows on screen. */
export const INSIGHTS_POLL_MS = 10_000;

export function insightsQueryOptions(key: string, poll: boolean) {
  return queryOptions({
    queryKey: ['insights', key] as const,
    queryFn: ({ signal }) => getJson<InsightsAnswer>(`${API_PATHS.insights}?${key}`, signal),
    placeholderData: keepPreviousData,
    refetchInterval: poll ? INSIGHTS_POLL_MS : false,
  });
}

export function mirrorQueryOptions(poll: boolean) {
  return queryOptions({
    queryKey: MIRROR_KEY,
    queryFn: ({ signal }) => getJson<MirrorState>(API_PATHS.mirror, signal),
    refetchInterval: poll ? 5_000 : false,
  });
}

export function startMirrorMutation(client: QueryClient) {
  return mutationOptions({
    mutationFn: (body: MirrorSettingsInput) => apiRequest<MirrorState>('PUT', API_PATHS.mirror, { body }),
    onSuccess: (state) => {
      client.setQueryData(MIRROR_KEY, state);
      void client.invalidateQueries({ queryKey: ['insights'] });
    },
  });
}
