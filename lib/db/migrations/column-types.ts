import 'server-only';
/**
 * The column types that differ between the dialects, in one place for every migration:
 * epoch milliseconds need 64 bits (SQLite's integer has them, PostgreSQL's integer does not),
 * binary data is `blob` or `bytea`, and an auto-numbered id is written differently.
 */
import type { ColumnDefinitionBuilder, CreateTableBuilder } from 'kysely';

/** Which database the store runs on; the few statements that differ branch on it. */
export type SqlDialect = 'sqlite' | 'postgres';

export interface ColumnTypes {
  /** Epoch milliseconds and byte counts. */
  epoch: 'integer' | 'bigint';
  binary: 'blob' | 'bytea';
}

export function columnTypes(dialect: SqlDialect): ColumnTypes {
  return dialect === 'postgres' ? { epoch: 'bigint', binary: 'bytea' } : { epoch: 'integer', binary: 'blob' };
}

/**
 * An `id` primary key numbered by the database in insertion order, never reused (AUTOINCREMENT in
 * SQLite: the ids of deleted rows are not handed out again, as export keyset paging relies on).
 */
export function addIdColumn<T extends string>(
  table: CreateTableBuilder<T, never>,
  dialect: SqlDialect,
): CreateTableBuilder<T, 'id'> {
  return dialect === 'postgres'
    ? table.addColumn('id', 'bigint', (c: ColumnDefinitionBuilder) => c.primaryKey().generatedByDefaultAsIdentity())
    : table.addColumn('id', 'integer', (c: ColumnDefinitionBuilder) => c.primaryKey().autoIncrement());
}
