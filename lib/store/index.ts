import 'server-only';
/**
 * The store's public face: `openStore` (./open-store.ts) opens SQLite or PostgreSQL and hands out
 * every sub-store; these are their interfaces.
 */
export { openStore, type DurableStore } from './open-store';
export type { ExportFileStore } from './export-files';
export type { ExportJobStore } from './export-jobs';
export type { HistoryStore } from './history-store';
export type { InsightsStore } from './insights-store';
export type { LeaseStore } from './leases';
export type { LedgerStore } from './ledger';
export type { CachedPage, CachedRecord, PageCacheStore } from './page-cache';
export type { FailureStreak, SignInAttemptStore } from './sign-in-attempts';
export type { VaultEntry, VaultStore } from './vault';
