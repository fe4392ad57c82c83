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
  mirror: '/api/mirror',
} as const;

/** `/signin?callbackUrl=<path>`: sign in, then come back to `path`. */
export function signInHref(callbackPath?: string): string {
  return callbackPath ? `${PAGE_PATHS.signIn}?callbackUrl=${encodeURIComponent(callbackPath)}` : PAGE_PATHS.signIn;
}
