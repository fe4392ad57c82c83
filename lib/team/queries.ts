/**
 * Team mode's queries in the browser: who is signed in (and the accounts to choose from), the People
 * page, the team's accounts, the audit log; and what an admin or a support person does through them.
 */
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { Cdr } from '../cdr/schema';
import { ApiError, apiRequest, getJson, problemOf } from '../http/api-client';
import { API_PATHS } from '../http/paths';
import type { QueryBody } from '../query/query';
import type { Zone } from '../time/zones';
import type { AuditPage, SignedInPersonView, TeamAccount, TeamPerson } from './api';

export const TEAM_KEYS = {
  session: ['team', 'session'],
  people: ['team', 'people'],
  accounts: ['team', 'accounts'],
  audit: ['team', 'audit'],
} as const;

export function teamSessionQueryOptions() {
  return queryOptions({
    queryKey: TEAM_KEYS.session,
    queryFn: ({ signal }) =>
      getJson<{ person: SignedInPersonView | null; accounts: { id: string; label: string }[]; current: string | null }>(
        API_PATHS.teamSession,
        signal,
      ),
    staleTime: 60_000,
  });
}

export function peopleQueryOptions() {
  return queryOptions({
    queryKey: TEAM_KEYS.people,
    queryFn: ({ signal }) => getJson<{ people: TeamPerson[] }>(API_PATHS.teamPeople, signal),
    // Calls and sessions move while the page is open.
    refetchInterval: 30_000,
  });
}

export function accountsQueryOptions() {
  return queryOptions({
    queryKey: TEAM_KEYS.accounts,
    queryFn: ({ signal }) => getJson<{ accounts: TeamAccount[] }>(API_PATHS.teamAccounts, signal),
  });
}

/**
 * The audit log's entries for `params` (its filters as a query string: lib/team/audit-request.ts
 * names them), newest first, a page at a time: each page's `next` is the URL of the older ones.
 */
export function auditQueryOptions(params: string) {
  return infiniteQueryOptions({
    queryKey: [...TEAM_KEYS.audit, params] as const,
    queryFn: ({ signal, pageParam }) =>
      getJson<AuditPage>(pageParam ?? `${API_PATHS.audit}${params ? `?${params}` : ''}`, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
  });
}

/** The filtered entries as CSV (the same parameters, `Accept: text/csv`). */
export async function auditCsvText(params: string): Promise<string> {
  const res = await fetch(`${API_PATHS.audit}${params ? `?${params}` : ''}`, {
    headers: { Accept: 'text/csv' },
    credentials: 'same-origin',
    cache: 'no-store',
  });
  if (!res.ok) throw new ApiError(await problemOf(res));
  return res.text();
}

export const setSuspended = (id: string, suspended: boolean) =>
  apiRequest<TeamPerson>('PUT', API_PATHS.teamPerson(id), { body: { suspended } });

export const addAccount = (input: { label: string; apiKey: string; enterpriseId: string; secret: string }) =>
  apiRequest<TeamAccount>('POST', API_PATHS.teamAccounts, { body: input });

export const replaceSecret = (id: string, secret: string) =>
  apiRequest<TeamAccount>('PUT', API_PATHS.teamAccount(id), { body: { secret } });

export const removeAccount = (id: string) => apiRequest<null>('DELETE', API_PATHS.teamAccount(id));

export const switchAccount = (id: string) =>
  apiRequest<TeamAccount>('PUT', API_PATHS.teamSession, { body: { account: id } });

/** Keeps the signed-in team person's language with their profile (PUT /api/team/session). */
export const saveProfileLocale = (locale: 'ja' | 'en') =>
  apiRequest<{ locale: string }>('PUT', API_PATHS.teamSession, { body: { locale } });

/** A record whole, for a reason (kept on the audit log). */
export const revealRecord = (trxId: string, tz: Zone, reason: string) =>
  apiRequest<Cdr & { _meta: { revealed: true } }>('POST', API_PATHS.reveal(trxId, tz), { body: { reason } });

/** Tells the server the rows on screen were written as CSV (a team person's download goes on the audit log). */
export const notePageCsv = (query: QueryBody, rows: number) =>
  apiRequest<null>('POST', API_PATHS.auditPageCsv, { body: { query, rows } });
