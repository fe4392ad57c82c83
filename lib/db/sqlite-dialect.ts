import 'server-only';
/**
 * Kysely's SQLite dialect, with one difference: a ROLLBACK that finds no transaction is not an error.
 * SQLite rolls a transaction back by itself when a statement in it fails for want of space or
 * memory (SQLITE_FULL, SQLITE_IOERR, SQLITE_NOMEM); Kysely then sends its own ROLLBACK, which
 * fails with "cannot rollback - no transaction is active", and that error would replace the one
 * that says what happened (the disk is full: lib/db/unavailable.ts, answered 507 and retried).
 */
import { SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver, type SqliteDialectConfig } from 'kysely';

const NO_TRANSACTION = /no transaction is active/i;

class ForgivingRollbackDriver extends SqliteDriver {
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await super.rollbackTransaction(connection);
    } catch (err) {
      if (err instanceof Error && NO_TRANSACTION.test(err.message)) return;
      throw err;
    }
  }
}

export class DashboardSqliteDialect extends SqliteDialect {
  constructor(private readonly config: SqliteDialectConfig) {
    super(config);
  }

  override createDriver(): Driver {
    return new ForgivingRollbackDriver(this.config);
  }
}
