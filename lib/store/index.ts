import 'server-only';
/**
 * The store the server uses: the SQLite file `dashboard.sqlite` in DATA_DIR. One instance per
 * process, created on first use (never at import time, so `next build` touches no data folder).
 */
import path from 'node:path';
import { getConfig } from '../config';
import { openDatabase, type Db } from './db';
import { createSqliteLedger, type LedgerStore } from './ledger';
import { createSqlitePageCache, type PageCacheStore } from './page-cache';
import { createSqliteVault, type VaultStore } from './vault';
import { scheduleMaintenance } from './maintenance';

export interface Store {
  db: Db;
  ledger: LedgerStore;
  cache: PageCacheStore;
  vault: VaultStore;
}

const globalForStore = globalThis as unknown as { __smsDashboardStore?: Store };

export function createStore(file: string): Store {
  const db = openDatabase(file);
  return { db, ledger: createSqliteLedger(db), cache: createSqlitePageCache(db), vault: createSqliteVault(db) };
}

/** The process-wide store (kept on globalThis so dev-mode module reloads share one connection). */
export function getStore(): Store {
  if (!globalForStore.__smsDashboardStore) {
    globalForStore.__smsDashboardStore = createStore(path.join(getConfig().dataDir, 'dashboard.sqlite'));
    scheduleMaintenance(globalForStore.__smsDashboardStore);
  }
  return globalForStore.__smsDashboardStore;
}

export type { LedgerStore, PageCacheStore, VaultStore };
