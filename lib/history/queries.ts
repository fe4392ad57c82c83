/**
 * The local history in the browser: its state (polled while it syncs) and the mutations that
 * change or delete it.
 */
import { mutationOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
import { apiRequest, getJson } from '../http/api-client';
import { API_PATHS } from '../http/paths';
import { QUERY_KEYS } from '../http/query-keys';
import type { HistorySettingsInput, HistoryState } from './api';

/** The History page looks every ~3 s while the copy is under way (or waiting to go on), not otherwise. */
export const HISTORY_POLL_MS = 3_000;

export function historyQueryOptions(pollMs: number = HISTORY_POLL_MS) {
  return queryOptions({
    queryKey: QUERY_KEYS.history,
    queryFn: async ({ signal, client }) => {
      const before = client.getQueryData<HistoryState>(QUERY_KEYS.history);
      const state = await getJson<HistoryState>(API_PATHS.history, signal);
      // The copy spends the account's calls: once it has, the meter (and what people have left) is behind.
      if (before && before.callsToday !== state.callsToday)
        void client.invalidateQueries({ queryKey: QUERY_KEYS.quota });
      return state;
    },
    // A complete, paused or stopped copy changes only when someone changes it (the mutations below).
    refetchInterval: (query) =>
      query.state.data?.state === 'syncing' || query.state.data?.state === 'waiting' ? pollMs : false,
    refetchIntervalInBackground: false,
    staleTime: 2_000,
  });
}

/** What a search costs and what Insights counts depend on what the local history holds: ask again after any change to it. */
function afterHistoryChange(client: QueryClient): void {
  void client.invalidateQueries({ queryKey: QUERY_KEYS.plan });
  void client.invalidateQueries({ queryKey: QUERY_KEYS.insights });
}

/** PUT /api/history: start, pause, the start day, copying while signed out; answers the new state. */
export function updateHistoryMutation(client: QueryClient) {
  return mutationOptions({
    mutationFn: (input: HistorySettingsInput) => apiRequest<HistoryState>('PUT', API_PATHS.history, { body: input }),
    onSuccess: (state) => {
      client.setQueryData(QUERY_KEYS.history, state);
      afterHistoryChange(client);
    },
  });
}

/** DELETE /api/history: forgets the copy, then reads the state again. */
export function deleteHistoryMutation(client: QueryClient) {
  return mutationOptions({
    mutationFn: () => apiRequest<null>('DELETE', API_PATHS.history),
    onSettled: async () => {
      afterHistoryChange(client);
      await client.invalidateQueries({ queryKey: QUERY_KEYS.history });
    },
  });
}
