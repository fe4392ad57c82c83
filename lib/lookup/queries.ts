/**
 * A lookup's query in the browser: one transaction in one zone, asked once (the server decides
 * whether that costs a call); the quota meter is asked again after it, as a lookup may have spent one.
 */
import { queryOptions } from '@tanstack/react-query';
import type { Zone } from '../time/zones';
import { getJson } from '../http/api-client';
import { API_PATHS } from '../http/paths';
import { QUERY_KEYS } from '../http/query-keys';
import type { TransactionDetail } from './api';

export function transactionQueryOptions(trxId: string, tz: Zone) {
  return queryOptions({
    queryKey: [...QUERY_KEYS.transaction, trxId, tz] as const,
    queryFn: async ({ signal, client }) => {
      try {
        return await getJson<TransactionDetail>(API_PATHS.transaction(trxId, tz), signal);
      } finally {
        void client.invalidateQueries({ queryKey: QUERY_KEYS.quota });
      }
    },
    staleTime: Infinity,
  });
}
