import 'server-only';
/**
 * Reconciliations (lib/reconcile): a list a person uploaded, each of its rows and its answer, and
 * the upstream queries and lookups that answer the rows the local history could not. The job as
 * JSON in `data` (like an export's), the columns it is found by beside it; rows and tasks in tables
 * of their own, so a step updates the few rows a page answers and the one task it read, never a
 * hundred thousand rows' JSON.
 */
import type { Kysely, Migration } from 'kysely';
import { columnTypes, type SqlDialect } from './column-types';

export function reconciliationsMigration(dialect: SqlDialect): Migration {
  const { epoch } = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('reconcile_jobs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account', 'text', (c) => c.notNull())
        .addColumn('owner', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('created_at', epoch, (c) => c.notNull())
        .addColumn('expires_at', epoch)
        .addColumn('data', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('reconcile_jobs_owner')
        .on('reconcile_jobs')
        .columns(['owner', 'created_at'])
        .execute();
      await db.schema
        .createIndex('reconcile_jobs_state')
        .on('reconcile_jobs')
        .columns(['state', 'created_at'])
        .execute();
      await db.schema
        .createTable('reconcile_rows')
        .addColumn('job_id', 'text', (c) => c.notNull())
        .addColumn('row_no', 'integer', (c) => c.notNull())
        .addColumn('value', 'text')
        .addColumn('span_from', epoch)
        .addColumn('span_to', epoch)
        .addColumn('sent_at', epoch)
        .addColumn('cost', 'text')
        .addColumn('cells', 'text', (c) => c.notNull())
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('found', 'integer', (c) => c.notNull())
        .addColumn('status', 'text')
        .addColumn('problem', 'text')
        .addColumn('matches', 'text')
        .addPrimaryKeyConstraint('reconcile_rows_pk', ['job_id', 'row_no'])
        .execute();
      // A page's records find the rows they answer by value; the rows view pages by outcome and status.
      await db.schema.createIndex('reconcile_rows_value').on('reconcile_rows').columns(['job_id', 'value']).execute();
      await db.schema
        .createIndex('reconcile_rows_outcome')
        .on('reconcile_rows')
        .columns(['job_id', 'outcome', 'row_no'])
        .execute();
      await db.schema
        .createTable('reconcile_tasks')
        .addColumn('job_id', 'text', (c) => c.notNull())
        .addColumn('id', 'integer', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('param', 'text')
        .addColumn('value', 'text')
        .addColumn('from_ms', epoch, (c) => c.notNull())
        .addColumn('to_ms', epoch, (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('total_found', 'integer')
        .addColumn('pages_done', 'integer', (c) => c.notNull())
        .addColumn('pages_total', 'integer')
        .addPrimaryKeyConstraint('reconcile_tasks_pk', ['job_id', 'id'])
        .execute();
    },
  };
}
