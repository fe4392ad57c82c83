import 'server-only';
/**
 * The local history in a compact layout (./history-compact-schema.ts): a year of a busy account
 * (3,000,000 records) took 3,084 bytes a record on disk, 9 GB; this layout takes under 1,200.
 * Scopes by number, the records' JSON compressed in blocks, SQLite's text index per scope and
 * month (and without a second copy of the text on the row), fewer indexes.
 *
 * Every record is copied, with its id (the day packs name records by id and stay valid), and the
 * rollups and day packs are kept as they are. It takes about a second per 4,000 records on a
 * 2-core machine (a million in about four minutes); it says so in the log when it starts, and how
 * far it is every tenth. The server answers once it is done.
 *
 * SQLite: the new layout is written into a new file beside the history file (`history.sqlite.next`)
 * and put in its place once complete, so the old file is never half-changed (a start that stops
 * half-way begins again from the old file) and the new one holds no free pages of the old layout.
 * PostgreSQL: in the migrations' transaction, under a lock that holds off the history writers of
 * older instances still running (their writes fail and are tried again by the new version: a page
 * staged is built again, nothing is lost).
 */
import fs from 'node:fs';
import { sql, type Kysely, type Migration } from 'kysely';
import type { SqlDialect } from './column-types';
import { HISTORY_SCHEMA, historyFilePragmas } from './history-schema';
import { compactTableStatements, recordIndexStatements } from './history-compact-schema';
import { copyRecords } from './history-compact-copy';

/** The tables the SQLite copy takes over as they are, rows and indexes. */
const KEPT_TABLES = ['history_rollups_hourly', 'history_rollups_daily', 'history_rollups_facets', 'history_day_packs'];
const NEXT = 'history_next';

async function run(db: Kysely<unknown>, statements: readonly string[]): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

/** Whether the records already have the compact layout (a start that stopped after the swap). */
async function isCompact(db: Kysely<unknown>, dialect: SqlDialect): Promise<boolean> {
  const { rows } =
    dialect === 'sqlite'
      ? await sql<{
          n: number;
        }>`select count(*) as n from pragma_table_info('history_records', ${HISTORY_SCHEMA}) where name = 'scope_no'`.execute(
          db,
        )
      : await sql<{
          n: number;
        }>`select count(*) as n from information_schema.columns where table_name = 'history_records' and column_name = 'scope_no' and table_schema = current_schema()`.execute(
          db,
        );
  return Number(rows[0]!.n) > 0;
}

async function rebuildSqlite(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{
    file: string;
  }>`select file from pragma_database_list where name = ${HISTORY_SCHEMA}`.execute(db);
  const file = rows[0]?.file;
  if (!file) throw new Error('the history file is not attached');
  const next = `${file}.next`;
  for (const leftover of [next, `${next}-journal`, `${next}-wal`, `${next}-shm`]) fs.rmSync(leftover, { force: true });
  // Readable by the server's user only, as the file it replaces (lib/db/private-files.ts).
  fs.writeFileSync(next, '', { mode: 0o600 });
  fs.chmodSync(next, 0o600);
  await sql`attach database ${next} as ${sql.raw(NEXT)}`.execute(db);
  try {
    // Built in one go and swapped in whole: no journal needed (a crash starts it again from the old file).
    await run(db, [
      historyFilePragmas(NEXT)[0]!,
      `pragma ${NEXT}.journal_mode = OFF`,
      `pragma ${NEXT}.synchronous = OFF`,
      `pragma ${NEXT}.secure_delete = ON`,
    ]);
    await run(db, compactTableStatements('sqlite', 'history_records', NEXT));
    const kept = await sql<{ type: string; name: string; tbl_name: string; sql: string }>`
      select type, name, tbl_name, sql from ${sql.raw(HISTORY_SCHEMA)}.sqlite_master
      where sql is not null and tbl_name in (${sql.join(KEPT_TABLES)}) order by type desc`.execute(db);
    // Tables before their indexes ('table' > 'index'), each made in the new file as it was.
    for (const r of kept.rows)
      await sql.raw(r.sql.replace(/^(\s*CREATE\s+(?:UNIQUE\s+)?(?:TABLE|INDEX)\s+)/i, `$1${NEXT}.`)).execute(db);
    for (const table of KEPT_TABLES)
      await sql.raw(`insert into ${NEXT}.${table} select * from ${HISTORY_SCHEMA}.${table}`).execute(db);
    await sql`begin`.execute(db);
    try {
      await copyRecords(db, {
        dialect: 'sqlite',
        from: `${HISTORY_SCHEMA}.`,
        to: `${NEXT}.`,
        records: 'history_records',
      });
      await run(db, recordIndexStatements('sqlite', 'history_records', NEXT));
      await sql`commit`.execute(db);
    } catch (err) {
      await sql`rollback`.execute(db);
      throw err;
    }
  } finally {
    await sql`detach database ${sql.raw(NEXT)}`.execute(db);
  }
  // The swap: the old file and its log out, the new one in, attached again under the same name.
  await sql`detach database ${sql.raw(HISTORY_SCHEMA)}`.execute(db);
  for (const old of [`${file}-wal`, `${file}-shm`, `${file}-journal`]) fs.rmSync(old, { force: true });
  fs.renameSync(next, file);
  await sql`attach database ${file} as ${sql.raw(HISTORY_SCHEMA)}`.execute(db);
  await run(db, historyFilePragmas(HISTORY_SCHEMA));
}

async function rebuildPostgres(db: Kysely<unknown>): Promise<void> {
  // Readers go on; an older instance's writer waits, then fails once the table is gone (tried again later).
  await sql`lock table history_records, history_bodies in exclusive mode`.execute(db);
  await run(db, compactTableStatements('postgres', 'history_records_next'));
  await copyRecords(db, { dialect: 'postgres', from: '', to: '', records: 'history_records_next' });
  await run(db, [
    'drop table history_bodies',
    'drop table history_records',
    'alter table history_records_next rename to history_records',
    'alter table history_records rename constraint history_records_next_scope_trx to history_records_scope_trx',
    'alter sequence history_records_next_id_seq rename to history_records_id_seq',
  ]);
  await run(db, recordIndexStatements('postgres', 'history_records'));
  // Each scope's own trigram index of its free text (lib/history/store/text-postgres.ts).
  const scopes = await sql<{ scope_no: number }>`select scope_no from history_scopes`.execute(db);
  for (const { scope_no } of scopes.rows)
    await sql
      .raw(
        `create index history_records_text_${Number(scope_no)} on history_records using gin (search_text gin_trgm_ops) where scope_no = ${Number(scope_no)}`,
      )
      .execute(db);
}

export function historyCompactMigration(dialect: SqlDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (await isCompact(db, dialect)) return;
      if (dialect === 'sqlite') await rebuildSqlite(db);
      else await rebuildPostgres(db);
    },
  };
}
