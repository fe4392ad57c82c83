/**
 * The browser's side of the exports API: one queryOptions factory for the account's jobs (shared by
 * the header badge and the exports page, so they poll once), and the writes (estimate, create,
 * cancel). Errors arrive as ApiError with the server's problem details.
 */
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { ApiError, getJson, NO_ANSWER, problemOf } from '@/lib/ui/api-client';
import { isActiveExportState, type ExportEstimate, type ExportJob, type ExportList } from '@/lib/exports/types';

export const EXPORTS_KEY = ['exports'] as const;

/** The badge looks every ~10 s while an export runs; the exports page, being watched, every ~3 s. */
export const BADGE_POLL_MS = 10_000;
export const PAGE_POLL_MS = 3_000;

export function exportsQueryOptions(pollMs: number = BADGE_POLL_MS) {
  return queryOptions({
    queryKey: EXPORTS_KEY,
    queryFn: ({ signal }) => getJson<ExportList>('/api/exports', signal),
    // Polls only while something runs: the endpoint is free, but an idle tab should stay idle.
    refetchInterval: (query) => (query.state.data?.jobs.some((j) => isActiveExportState(j.state)) ? pollMs : false),
    refetchIntervalInBackground: false,
    staleTime: 2_000,
  });
}

async function send<T>(method: 'POST' | 'DELETE', path: string, body?: unknown): Promise<T | null> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: { Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError({ type: 'about:blank', title: 'No answer from the dashboard', status: NO_ANSWER, detail: 'The dashboard server could not be reached. Check the connection, then retry.' });
  }
  if (!response.ok) throw new ApiError(await problemOf(response));
  return response.status === 204 ? null : ((await response.json()) as T);
}

/** The body of POST /api/exports: the query with the upstream's names, and the columns. */
export type ExportBody = Record<string, string | string[] | boolean>;

export async function estimateExport(body: ExportBody): Promise<ExportEstimate> {
  return (await send<ExportEstimate>('POST', '/api/exports', { ...body, dryRun: true })) as ExportEstimate;
}

export async function createExport(client: QueryClient, body: ExportBody): Promise<ExportJob> {
  const job = (await send<ExportJob>('POST', '/api/exports', body)) as ExportJob;
  void client.invalidateQueries({ queryKey: EXPORTS_KEY });
  return job;
}

export async function readExport(id: string, signal?: AbortSignal): Promise<ExportJob> {
  return getJson<ExportJob>(`/api/exports/${encodeURIComponent(id)}`, signal);
}

/** Cancels a running export, or deletes a finished one. */
export async function cancelExport(client: QueryClient, id: string): Promise<void> {
  await send('DELETE', `/api/exports/${encodeURIComponent(id)}`);
  void client.invalidateQueries({ queryKey: EXPORTS_KEY });
}

/** Starts the browser's download of a URL (the server names the file) or of text made here. */
export function saveFile(source: { href: string } | { text: string; fileName: string }): void {
  const a = document.createElement('a');
  let revoke: string | null = null;
  if ('href' in source) {
    a.href = source.href;
  } else {
    revoke = URL.createObjectURL(new Blob([source.text], { type: 'text/csv;charset=utf-8' }));
    a.href = revoke;
    a.download = source.fileName;
  }
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  if (revoke) setTimeout(() => URL.revokeObjectURL(revoke), 10_000);
}
