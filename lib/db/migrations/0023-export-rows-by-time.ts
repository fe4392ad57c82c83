import 'server-only';
/**
 * An export's records are found again (de-duplication, lib/exports/job-store.ts) by their received
 * time first, then their trx_id: `UNIQUE (job_id, received_ms, trx_id)` instead of
 * `UNIQUE (job_id, trx_id)`. A page's records were received one after another, so their entries
 * sit side by side in the new index: a page's commit writes a few of its pages. trx_ids are
 * random: in the old index a page's 100 records landed on about as many different index pages,
 * each written whole to the log at every commit, before the next upstream call could go: about a
 * millisecond of the export's own cost per page (bench/NOTES.md).
 *
 * SQLite cannot drop a UNIQUE constraint of a table's definition, so the table is built again
 * (in both dialects, the same way, in one transaction). Rows of a job running while this ran have
 * no received time (null): they are compared with every page the job still reads, as rows whose
 * received time cannot be read are. Ids are kept, and numbering goes on where it was (keyset
 * paging).
 */
import { sql, type Kysely, type Migration } from 'kysely';
import { addIdColumn, columnTypes, type SqlDialect } from './column-types';

export function exportRowsByTimeMigration(dialect: SqlDialect): Migration {
  const { epoch } = columnTypes(dialect);
  const rebuild = async (db: Kysely<unknown>) => {
    if (dialect === 'postgres') {
      // An instance of the version before, still running in a rolling upgrade, may write a page of
      // its export meanwhile: it waits here, then writes into the new table, instead of writing
      // into the old one after it was copied and losing the page when that one is dropped.
      await sql`lock table export_rows in access exclusive mode`.execute(db);
    }
    await addIdColumn(db.schema.createTable('export_rows_by_time'), dialect)
      .addColumn('job_id', 'text', (c) => c.notNull())
      .addColumn('received_ms', epoch)
      .addColumn('trx_id', 'text', (c) => c.notNull())
      .addColumn('win', 'integer', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addUniqueConstraint('export_rows_job_time_trx', ['job_id', 'received_ms', 'trx_id'])
      .execute();
    await sql`insert into export_rows_by_time (id, job_id, received_ms, trx_id, win, body) select id, job_id, null, trx_id, win, body from export_rows`.execute(
      db,
    );
    // Numbering goes on where the old table's left off, past the ids of rows deleted since (not
    // only past the highest id left).
    const nextId = await nextIdOf(db, dialect);
    await db.schema.dropTable('export_rows').execute();
    await db.schema.alterTable('export_rows_by_time').renameTo('export_rows').execute();
    await db.schema.createIndex('export_rows_job').on('export_rows').columns(['job_id', 'id']).execute();
    if (dialect === 'postgres') {
      await sql`select setval(pg_get_serial_sequence('export_rows', 'id'), ${nextId}, false)`.execute(db);
    } else {
      await sql`delete from sqlite_sequence where name = 'export_rows'`.execute(db);
      await sql`insert into sqlite_sequence (name, seq) values ('export_rows', ${nextId - 1})`.execute(db);
    }
  };
  return {
    async up(db: Kysely<unknown>) {
      // PostgreSQL's migrations run in a transaction each; SQLite's do not (Kysely's migrator), so
      // the rebuild is one here: a start stopped half-way leaves the table as it was, and the next
      // start rebuilds it from the beginning.
      if (dialect === 'sqlite') await db.transaction().execute((trx) => rebuild(trx));
      else await rebuild(db);
    },
  };
}

/** The id export_rows would give its next row (AUTOINCREMENT's counter, or the identity's sequence). */
async function nextIdOf(db: Kysely<unknown>, dialect: SqlDialect): Promise<number> {
  if (dialect === 'postgres') {
    const { rows } = await sql<{
      next: string;
    }>`select nextval(pg_get_serial_sequence('export_rows', 'id')) as next`.execute(db);
    return Number(rows[0]!.next);
  }
  const { rows } = await sql<{ seq: number }>`select seq from sqlite_sequence where name = 'export_rows'`.execute(db);
  return (rows[0]?.seq ?? 0) + 1;
}
