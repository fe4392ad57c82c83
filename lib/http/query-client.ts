/**
 * The browser's QueryClient. Its defaults exist to protect the upstream's budget: nothing is
 * refetched because a window regained focus or the network came back, and a failed request is
 * never retried blindly (a 429 is waited out by the error state, with its countdown).
 */
import { QueryClient } from '@tanstack/react-query';
import { ApiError, NO_ANSWER } from './api-client';

export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
        // Only a request that got no answer at all is tried again, once.
        retry: (failures, error) => error instanceof ApiError && error.status === NO_ANSWER && failures < 1,
        staleTime: 30_000,
      },
    },
  });
}
