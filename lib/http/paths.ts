/**
 * Every path of the dashboard, pages and API, written once. Safe in the browser and the server.
 */
import type { Zone } from '../time/zones';

export const PAGE_PATHS = {
  home: '/',
  signIn: '/signin',
  transactions: '/transactions',
  transaction: (trxId: string, tz?: Zone) => `/transactions/${encodeURIComponent(trxId)}${tz ? `?tz=${tz}` : ''}`,
  exports: '/exports',
  history: '/history',
  insights: '/insights',
  /** Team mode's admin pages (lib/team). */
  adminPeople: '/admin/people',
  adminAccounts: '/admin/accounts',
  adminAudit: '/admin/audit',
  reconcile: '/reconcile',
} as const;

export const API_PATHS = {
  transactions: '/api/transactions',
  transaction: (trxId: string, tz: Zone) => `/api/transactions/${encodeURIComponent(trxId)}?tz=${tz}`,
  plan: '/api/plan',
  quota: '/api/quota',
  exports: '/api/exports',
  export: (id: string) => `/api/exports/${encodeURIComponent(id)}`,
  exportFile: (id: string) => `/api/exports/${encodeURIComponent(id)}/file`,
  insights: '/api/insights',
  history: '/api/history',
  signOutEverywhere: '/api/sign-out-everywhere',
  reveal: (trxId: string, tz: Zone) => `/api/transactions/${encodeURIComponent(trxId)}/reveal?tz=${tz}`,
  audit: '/api/audit',
  auditPageCsv: '/api/audit/page-csv',
  teamPeople: '/api/team/people',
  teamPerson: (id: string) => `/api/team/people/${encodeURIComponent(id)}`,
  teamAccounts: '/api/team/accounts',
  teamAccount: (id: string) => `/api/team/accounts/${encodeURIComponent(id)}`,
  teamSession: '/api/team/session',
  reconciliations: '/api/reconciliations',
  reconciliation: (id: string) => `/api/reconciliations/${encodeURIComponent(id)}`,
  reconciliationStart: (id: string) => `/api/reconciliations/${encodeURIComponent(id)}/start`,
  reconciliationRows: (id: string) => `/api/reconciliations/${encodeURIComponent(id)}/rows`,
  reconciliationFile: (id: string) => `/api/reconciliations/${encodeURIComponent(id)}/file`,
} as const;

/**
 * `/signin?callbackUrl=<path>`: sign in, then come back to `path`; with `error`, the sign-in page
 * shows that code's text (lib/auth/sign-in-errors.ts) — why the person has to sign in again.
 */
export function signInHref(callbackPath?: string, error?: string): string {
  const params = new URLSearchParams();
  if (error) params.set('error', error);
  if (callbackPath) params.set('callbackUrl', callbackPath);
  return params.size > 0 ? `${PAGE_PATHS.signIn}?${params.toString()}` : PAGE_PATHS.signIn;
}
