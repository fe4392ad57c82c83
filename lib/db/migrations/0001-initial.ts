import 'server-only';
/**
 * The store as it was before Kysely (the tables each SQLite store created for itself), plus the
 * export files kept in the database. Every statement is `if not exists`: a SQLite file written by
 * the earlier stores has these tables with these columns already and is adopted as it is.
 */
import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from './column-types';
import { addIdColumn, columnTypes } from './column-types';

export function initialMigration(dialect: SqlDialect): Migration {
  const { epoch, binary } = columnTypes(dialect);
  return {
    // Kysely<unknown>: a migration sees the schema as it was when it was written, not today's types.
    async up(db: Kysely<unknown>) {
      const s = db.schema;

      await addIdColumn(s.createTable('upstream_calls').ifNotExists(), dialect)
        .addColumn('account', 'text', (c) => c.notNull())
        .addColumn('at', epoch, (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('outcome', 'text')
        .execute();
      await s
        .createIndex('upstream_calls_account_at')
        .ifNotExists()
        .on('upstream_calls')
        .columns(['account', 'at'])
        .execute();
      await s.createIndex('upstream_calls_at').ifNotExists().on('upstream_calls').column('at').execute();

      await s
        .createTable('upstream_blocks')
        .ifNotExists()
        .addColumn('account', 'text', (c) => c.primaryKey())
        .addColumn('until', epoch, (c) => c.notNull())
        .execute();

      await s
        .createTable('cache_pages')
        .ifNotExists()
        .addColumn('account', 'text', (c) => c.notNull())
        .addColumn('query_key', 'text', (c) => c.notNull())
        .addColumn('sort_order', 'text', (c) => c.notNull())
        .addColumn('page', 'integer', (c) => c.notNull())
        .addColumn('total_found', 'integer', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('fetched_at', epoch, (c) => c.notNull())
        .addColumn('expires_at', epoch, (c) => c.notNull())
        .addPrimaryKeyConstraint('cache_pages_pk', ['account', 'query_key', 'sort_order', 'page'])
        .execute();
      await s.createIndex('cache_pages_expires').ifNotExists().on('cache_pages').column('expires_at').execute();

      await s
        .createTable('cache_records')
        .ifNotExists()
        .addColumn('account', 'text', (c) => c.notNull())
        .addColumn('trx_id', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('fetched_at', epoch, (c) => c.notNull())
        .addColumn('expires_at', epoch, (c) => c.notNull())
        .addPrimaryKeyConstraint('cache_records_pk', ['account', 'trx_id'])
        .execute();
      await s.createIndex('cache_records_expires').ifNotExists().on('cache_records').column('expires_at').execute();

      await s
        .createTable('sessions')
        .ifNotExists()
        .addColumn('sid', 'text', (c) => c.primaryKey())
        .addColumn('api_key', 'text', (c) => c.notNull())
        .addColumn('enterprise_id', 'text')
        .addColumn('sealed_secret', 'text', (c) => c.notNull())
        .addColumn('created_at', epoch, (c) => c.notNull())
        .addColumn('expires_at', epoch, (c) => c.notNull())
        .execute();
      await s.createIndex('sessions_api_key').ifNotExists().on('sessions').column('api_key').execute();

      await s
        .createTable('export_jobs')
        .ifNotExists()
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('created_at', epoch, (c) => c.notNull())
        .addColumn('expires_at', epoch)
        .addColumn('data', 'text', (c) => c.notNull())
        .execute();
      await s
        .createIndex('export_jobs_account')
        .ifNotExists()
        .on('export_jobs')
        .columns(['account', 'created_at'])
        .execute();
      await s.createIndex('export_jobs_state').ifNotExists().on('export_jobs').column('state').execute();

      await addIdColumn(s.createTable('export_rows').ifNotExists(), dialect)
        .addColumn('job_id', 'text', (c) => c.notNull())
        .addColumn('trx_id', 'text', (c) => c.notNull())
        .addColumn('win', 'integer', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addUniqueConstraint('export_rows_job_trx', ['job_id', 'trx_id'])
        .execute();
      await s.createIndex('export_rows_job').ifNotExists().on('export_rows').columns(['job_id', 'id']).execute();

      // A finished file is its row here; its chunks are written first (see export-files.ts).
      await s
        .createTable('export_files')
        .ifNotExists()
        .addColumn('job_id', 'text', (c) => c.primaryKey())
        .addColumn('bytes', epoch, (c) => c.notNull())
        .addColumn('chunks', 'integer', (c) => c.notNull())
        .addColumn('created_at', epoch, (c) => c.notNull())
        .execute();
      await s
        .createTable('export_file_chunks')
        .ifNotExists()
        .addColumn('job_id', 'text', (c) => c.notNull())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('data', binary, (c) => c.notNull())
        .addPrimaryKeyConstraint('export_file_chunks_pk', ['job_id', 'seq'])
        .execute();
    },
  };
}
