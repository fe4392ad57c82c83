import 'server-only';
/**
 * Brings the database up to the latest migration, at start. Kysely's migrator keeps what ran in
 * `kysely_migration` and, on PostgreSQL, holds an advisory lock while it works: instances starting
 * together against one database wait for each other and each applies nothing twice. (SQLite needs
 * no lock: one process owns the data folder, see data-dir-lock.ts.)
 */
import { Migrator, PostgresAdapter, sql, type Kysely } from 'kysely';
import { migrationsFor } from './migrations';
import type { Database, SqlDialect } from './schema';

/** The dialect a Kysely instance speaks (read from its adapter, so callers need not pass it along). */
export function dialectOf(db: Kysely<Database>): SqlDialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/**
 * Applies the pending migrations; returns the names it applied. Pass the dialect when it is known
 * (openDatabase returns it): the adapter check relies on one copy of Kysely, which separate server
 * bundles need not share.
 */
export async function migrate(db: Kysely<Database>, dialect: SqlDialect = dialectOf(db)): Promise<string[]> {
  const migrations = migrationsFor(dialect);
  // Migrations touch separate tables, so one added with a lower number than one already applied (two
  // developments landing in either order) is still applied rather than refused.
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    allowUnorderedMigrations: true,
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) {
    // Data a newer version upgraded: said as that, with what to do (Kysely calls it "corrupted").
    const newer =
      error instanceof Error ? /previously executed migration (\S+) is missing/.exec(error.message)?.[1] : undefined;
    if (newer) {
      throw new Error(
        `This data was upgraded by a newer version of the dashboard (its migration ${newer}), which this version does not know: it cannot open it. Run the newer version (every instance of a cluster), or restore the backup taken before the upgrade. Nothing was changed.`,
        { cause: error },
      );
    }
    const failed = results.find((r) => r.status === 'Error')?.migrationName ?? 'setting up the migration tables';
    throw new Error(
      `Database migration failed at ${failed}: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * Migrations this version knows that the database has not applied (the readiness check): none once
 * the store is open, unless the database was swapped or restored from an older backup since.
 */
export async function pendingMigrations(db: Kysely<Database>, dialect: SqlDialect): Promise<string[]> {
  const applied = new Set(
    (await sql<{ name: string }>`select name from kysely_migration`.execute(db)).rows.map((r) => r.name),
  );
  return Object.keys(migrationsFor(dialect)).filter((name) => !applied.has(name));
}
