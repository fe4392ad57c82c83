import 'server-only';
/**
 * The store: the SQLite file `dashboard.sqlite` in DATA_DIR, with its sub-stores (ledger, page
 * cache, session vault, export jobs). Opened once per process by the composition root
 * (lib/services.ts), never at import time, so `next build` touches no data folder.
 */
import { openDatabase, type Db } from './db';
import { createSqliteExportStore, type ExportStore } from './exports';
import { createSqliteLedger, type LedgerStore } from './ledger';
import { withMemoryCache } from './memory-page-cache';
import { createSqlitePageCache, type PageCacheStore } from './page-cache';
import { createSqliteVault, type VaultStore } from './vault';

export interface Store {
  db: Db;
  ledger: LedgerStore;
  cache: PageCacheStore;
  vault: VaultStore;
  exports: ExportStore;
  close(): void;
}

/** Decoded pages kept in memory in front of the page cache (about 150 KB each). */
export const MEMORY_CACHE_PAGES = 400;

export function createStore(file: string): Store {
  const db = openDatabase(file);
  const vault = createSqliteVault(db);
  return {
    db,
    ledger: createSqliteLedger(db),
    cache: withMemoryCache(createSqlitePageCache(db), MEMORY_CACHE_PAGES),
    vault,
    exports: createSqliteExportStore(db),
    close: () => db.close(),
  };
}

export type { ExportStore, LedgerStore, PageCacheStore, VaultStore };
