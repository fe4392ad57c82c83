import 'server-only';
/**
 * The durable store on one database: PostgreSQL when DATABASE_URL is set (several instances share
 * it), else the SQLite file in DATA_DIR (one instance). Opens it, brings its tables up to date, and
 * hands out every store that lives in it.
 */
import { sql, type Kysely } from 'kysely';
import type pg from 'pg';
import type { Config } from '../config';
import { migrate } from '../db/migrate';
import { openDatabase } from '../db/open-database';
import type { Database, SqlDialect } from '../db/schema';
import { createExportFileStore, type ExportFileStore } from '../exports/server';
import { createExportJobStore, type ExportJobStore } from '../exports/server';
import { historyFileOf } from '../db/history-file';
import { sqliteFileOf } from '../db/sqlite-file';
import { createHistoryStore, type HistoryStore } from '../history/server';
import { createHistoryWriter, inlineBackend } from '../history/server';
import { threadBackend } from '../history/server';
import { inlineTextLookup, sqliteTextIndex, threadTextLookup } from '../history/server';
import { createHistoryWrites } from '../history/server';
import { createInsightsStore, type InsightsStore } from '../insights/server';
import { createDayPackStore } from '../history/server';
import { createLeaseStore, type LeaseStore } from '../background/server';
import { createLedger, type LedgerStore } from '../governor/server';
import { createPageCache, type PageCacheStore } from '../cache/server';
import { createSignInAttemptStore, type SignInAttemptStore } from '../auth/server';
import { createVault, type VaultStore } from '../auth/server';
import { createReconcileJobStore, type ReconcileJobStore } from '../reconcile/server';

export interface DurableStore {
  dialect: SqlDialect;
  db: Kysely<Database>;
  /** PostgreSQL only: the connection pool (the shared governor holds advisory locks on it). */
  pool?: pg.Pool;
  ledger: LedgerStore;
  cache: PageCacheStore;
  vault: VaultStore;
  exportJobs: ExportJobStore;
  exportFiles: ExportFileStore;
  leases: LeaseStore;
  history: HistoryStore;
  /** Insights' sums and latencies over the local history. */
  insights: InsightsStore;
  signInAttempts: SignInAttemptStore;
  /** Reconciliations: the lists, their rows' answers and their upstream tasks. */
  reconcile: ReconcileJobStore;
  /** Asks the database the smallest question there is (the health check): rejects when it cannot answer. */
  ping(): Promise<void>;
  /** Closes the database (for SQLite, frees the data folder for another process). */
  close(): Promise<void>;
}

export interface OpenStoreOptions {
  /**
   * Where the local history's data is written (../history/store/writer.ts): on a thread of its own with a
   * connection of its own (`thread`, the server's), or on this one (`inline`: stores in tests that
   * do not care where).
   */
  historyWriter?: 'thread' | 'inline';
}

/**
 * Connections besides the calls in flight, each of which holds one for the governor's slot: one
 * listens for the other instances, the rest serve requests and background work. Fewer, and calls
 * in flight could take every connection and wait for one more to finish.
 */
const CONNECTIONS_BESIDES_CALLS = 9;

export async function openStore(
  config: Pick<Config, 'DATABASE_URL' | 'dataDir'> & Partial<Pick<Config, 'UPSTREAM_MAX_IN_FLIGHT'>>,
  options: OpenStoreOptions = {},
): Promise<DurableStore> {
  const poolSize = (config.UPSTREAM_MAX_IN_FLIGHT ?? 1) + CONNECTIONS_BESIDES_CALLS;
  const { db, dialect, pool, close } = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.dataDir,
    poolSize,
  });
  try {
    await migrate(db, dialect);
    // One SQLite folder serves one process (the data-folder lock): leases a dead process left
    // behind are void, and its work resumes here at once rather than when they expire.
    if (dialect === 'sqlite') await db.deleteFrom('leases').execute();
  } catch (err) {
    await close();
    throw err;
  }
  const writer = createHistoryWriter(
    options.historyWriter === 'inline'
      ? inlineBackend(createHistoryWrites(db, dialect))
      : threadBackend(
          dialect === 'postgres'
            ? { dialect, url: config.DATABASE_URL! }
            : { dialect, file: historyFileOf(config.dataDir), storeFile: sqliteFileOf(config.dataDir) },
        ),
  );
  // The day packs' cache in memory is shared by the table's searches and Insights.
  const dayPacks = createDayPackStore(db, (scope, day) => writer.buildPackWhenIdle(scope, day));
  // SQLite's free-text lookups on a thread of their own beside the writer's (inline with it in tests).
  const textLookup =
    dialect === 'sqlite'
      ? options.historyWriter === 'inline'
        ? inlineTextLookup(db)
        : threadTextLookup(historyFileOf(config.dataDir))
      : null;
  const history = createHistoryStore(
    db,
    dialect,
    writer,
    dayPacks,
    textLookup ? { text: sqliteTextIndex(textLookup) } : {},
  );
  return {
    dialect,
    db,
    ...(pool ? { pool } : {}),
    ledger: createLedger(db),
    cache: createPageCache(db),
    vault: createVault(db),
    exportJobs: createExportJobStore(db, dialect),
    exportFiles: createExportFileStore(db),
    leases: createLeaseStore(db),
    history,
    insights: createInsightsStore(db, dialect, dayPacks, history.reads),
    signInAttempts: createSignInAttemptStore(db, dialect),
    reconcile: createReconcileJobStore(db),
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await writer.close();
      await textLookup?.close();
      await close();
    },
  };
}
