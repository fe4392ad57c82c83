/**
 * Reconciliations in the browser: the account's list, one reconciliation and a page of its rows
 * (polled while it runs: the endpoints are free), and the mutations that upload a list, start it
 * and forget it.
 */
import { keepPreviousData, mutationOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
import { apiRequest, getJson } from '../http/api-client';
import { API_PATHS } from '../http/paths';
import { QUERY_KEYS } from '../http/query-keys';
import { rowsSearch } from './rows-query';
import {
  isActiveReconcileState,
  type Outcome,
  type ReconcileCreated,
  type ReconcileRowsPage,
  type Reconciliation,
} from './api';

/** While it runs, the page looks again every few seconds. */
export const RECONCILE_POLL_MS = 3_000;

export interface RowsView {
  outcome: Outcome | 'pending' | null;
  status: string | null;
  page: number;
}

export function reconciliationsQueryOptions() {
  return queryOptions({
    queryKey: QUERY_KEYS.reconciliations,
    queryFn: ({ signal }) =>
      getJson<{ reconciliations: Reconciliation[] }>(API_PATHS.reconciliations, signal).then((r) => r.reconciliations),
    refetchInterval: (query) =>
      query.state.data?.some((r) => isActiveReconcileState(r.state)) ? RECONCILE_POLL_MS : false,
    refetchIntervalInBackground: false,
  });
}

export function reconciliationQueryOptions(id: string) {
  return queryOptions({
    queryKey: [...QUERY_KEYS.reconciliations, id] as const,
    queryFn: ({ signal }) => getJson<Reconciliation>(API_PATHS.reconciliation(id), signal),
    refetchInterval: (query) =>
      query.state.data && isActiveReconcileState(query.state.data.state) ? RECONCILE_POLL_MS : false,
    refetchIntervalInBackground: false,
  });
}

/** A page of rows; polled with the reconciliation while it runs (`active`), the page on screen kept while the next loads. */
export function reconcileRowsQueryOptions(id: string, view: RowsView, active: boolean) {
  return queryOptions({
    queryKey: [...QUERY_KEYS.reconciliations, id, 'rows', view] as const,
    queryFn: ({ signal }) =>
      getJson<ReconcileRowsPage>(`${API_PATHS.reconciliationRows(id)}${rowsSearch(view)}`, signal),
    placeholderData: keepPreviousData,
    refetchInterval: active ? RECONCILE_POLL_MS : false,
    refetchIntervalInBackground: false,
  });
}

/** Uploads a list (the form: `file` and the settings). Nothing is spent until it is started. */
export function createReconciliationMutation(client: QueryClient) {
  return mutationOptions({
    mutationFn: (form: FormData) => apiRequest<ReconcileCreated>('POST', API_PATHS.reconciliations, { body: form }),
    onSuccess: () => void client.invalidateQueries({ queryKey: QUERY_KEYS.reconciliations }),
  });
}

export function startReconciliationMutation(client: QueryClient) {
  return mutationOptions({
    mutationFn: (id: string) => apiRequest<Reconciliation>('POST', API_PATHS.reconciliationStart(id)),
    onSuccess: (r) => client.setQueryData([...QUERY_KEYS.reconciliations, r.id], r),
    onSettled: () => void client.invalidateQueries({ queryKey: QUERY_KEYS.reconciliations }),
  });
}

export function forgetReconciliationMutation(client: QueryClient) {
  return mutationOptions({
    mutationFn: (id: string) => apiRequest<null>('DELETE', API_PATHS.reconciliation(id)),
    onSettled: () => void client.invalidateQueries({ queryKey: QUERY_KEYS.reconciliations }),
  });
}
