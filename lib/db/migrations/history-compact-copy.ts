import 'server-only';
/**
 * Migration 0040-history-compact's copy of the records, the same for both dialects: scope by
 * scope, day by day (in received-time order, through the old received-time index), each record
 * with its id, its columns, its place in a block of its day's bodies (./body-blocks.ts) and, on
 * SQLite, its text in the scope's month of the text index (./history-text-tables.ts). Read from
 * the layout every version before it wrote (`history_records` with the scope's key and the free
 * text on the row, `history_bodies` by id).
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { log } from '../../log';
import { DAY_MS } from '../../time/units';
import type { SqlDialect } from './column-types';
import { BLOCK_RECORDS, encodeBlock } from './body-blocks';
import { createTextTableStatements, indexedText, textMonthOf, textTableName } from './history-text-tables';

/** The old layout's columns the new one keeps (besides id, scope, body and search_text). */
const KEPT_COLUMNS = [
  'trx_id',
  'received_ms',
  'to_address',
  'to_rev',
  'from_address',
  'status',
  'network_code',
  'network_name',
  'api_key',
  'api_key_name',
  'ref',
  'enterprise_id',
  'delivery_method',
  'dlr_error_code',
  'parts',
  'price_units',
  'currency',
  'submitted_ms',
  'delivered_ms',
  'latency_ms',
] as const;

type OldRow = Record<(typeof KEPT_COLUMNS)[number], unknown> & { id: number; search_text: string; body: string };

/** Rows per INSERT: 27 values each, well under either dialect's limit of parameters. */
const ROWS_PER_INSERT = 200;

export interface CopyTarget {
  dialect: SqlDialect;
  /** Where the old tables are read (SQLite: 'history.'; PostgreSQL: ''). */
  from: string;
  /** Where the new ones are written (SQLite: 'history_next.'; PostgreSQL: ''). */
  to: string;
  /** The new records' table (its name while it is filled). */
  records: string;
}

/** Copies every scope's records; answers how many were copied. */
export async function copyRecords(db: Kysely<unknown>, target: CopyTarget): Promise<number> {
  const { from, to, dialect } = target;
  const total = Number(
    (await sql<{ n: number }>`select count(*) as n from ${sql.raw(`${from}history_records`)}`.execute(db)).rows[0]!.n,
  );
  if (total === 0) return 0;
  // About 4,000 records a second on two cores (bench/NOTES.md).
  log.info('history.rebuild_started', {
    records: total,
    estimatedSeconds: Math.ceil(total / 4_000),
    why: 'the local history is rebuilt in its compact layout (migration 0040-history-compact): records by scope number, bodies compressed in blocks, the text index per account and month; the server answers once it is done',
  });
  const started = Date.now();
  let copied = 0;
  let nextBlock = 1;
  let nextReport = total / 10;
  const scopes = await sql<{
    scope: string;
  }>`select distinct scope from ${sql.raw(`${from}history_records`)} order by scope`.execute(db);
  for (const { scope } of scopes.rows) {
    const scopeNo = await numberOf(db, to, scope);
    const span = (
      await sql<{ first: number; last: number }>`select min(received_ms) as first, max(received_ms) as last
        from ${sql.raw(`${from}history_records`)} where scope = ${scope}`.execute(db)
    ).rows[0]!;
    const months = new Set<number>();
    for (let day = Math.floor(Number(span.first) / DAY_MS) * DAY_MS; day <= Number(span.last); day += DAY_MS) {
      const rows = (
        await sql<OldRow>`select r.*, b.body from ${sql.raw(`${from}history_records`)} r
          join ${sql.raw(`${from}history_bodies`)} b on b.id = r.id
          where r.scope = ${scope} and r.received_ms >= ${day} and r.received_ms < ${day + DAY_MS}
          order by r.received_ms, r.trx_id`.execute(db)
      ).rows;
      if (rows.length === 0) continue;
      const dayName = new Date(day).toISOString().slice(0, 10);
      const placed: { row: OldRow; block: number; pos: number }[] = [];
      for (let i = 0; i < rows.length; i += BLOCK_RECORDS) {
        const part = rows.slice(i, i + BLOCK_RECORDS);
        const block = nextBlock++;
        const { data } = encodeBlock(part.map((r) => r.body));
        await sql`insert into ${sql.raw(`${to}history_body_blocks`)} (block_no, scope_no, day, data)
          values (${block}, ${scopeNo}, ${dayName}, ${data})`.execute(db);
        part.forEach((row, pos) => placed.push({ row, block, pos }));
      }
      for (let i = 0; i < placed.length; i += ROWS_PER_INSERT)
        await insertRows(db, target, scopeNo, placed.slice(i, i + ROWS_PER_INSERT));
      if (dialect === 'sqlite') {
        // The day's texts into its month's table (one statement per table: FTS5 writes a segment per statement).
        const month = textMonthOf(day);
        if (!months.has(month)) {
          for (const statement of createTextTableStatements(to.slice(0, -1), scopeNo, month))
            await sql.raw(statement).execute(db);
          months.add(month);
        }
        const texts = JSON.stringify(rows.map((r) => [Number(r.id), indexedText(r.search_text.replace(/\n$/, ''))]));
        await sql`insert into ${sql.raw(`${to}${textTableName(scopeNo, month)}`)} (rowid, search_text)
          select json_extract(value, '$[0]'), json_extract(value, '$[1]') from json_each(${texts})`.execute(db);
      }
      copied += rows.length;
      if (copied >= nextReport) {
        nextReport += total / 10;
        log.info('history.rebuild_progress', {
          records: copied,
          of: total,
          seconds: Math.round((Date.now() - started) / 1000),
        });
      }
    }
  }
  if (dialect === 'postgres') {
    await sql
      .raw(`select setval(pg_get_serial_sequence('${target.records}', 'id'), (select max(id) from ${target.records}))`)
      .execute(db);
    await sql.raw(`select setval(pg_get_serial_sequence('history_body_blocks', 'block_no'), ${nextBlock})`).execute(db);
  }
  log.info('history.rebuild_done', { records: copied, seconds: Math.round((Date.now() - started) / 1000) });
  return copied;
}

/** The scope's number, given now (the copy gives them in the scopes' order). */
async function numberOf(db: Kysely<unknown>, to: string, scope: string): Promise<number> {
  const { rows } = await sql<{
    scope_no: number;
  }>`insert into ${sql.raw(`${to}history_scopes`)} (scope) values (${scope})
    returning scope_no`.execute(db);
  return Number(rows[0]!.scope_no);
}

async function insertRows(
  db: Kysely<unknown>,
  target: CopyTarget,
  scopeNo: number,
  placed: readonly { row: OldRow; block: number; pos: number }[],
): Promise<void> {
  const pg = target.dialect === 'postgres';
  const columns = ['id', 'scope_no', ...KEPT_COLUMNS, ...(pg ? ['search_text'] : []), 'body_block', 'body_pos'];
  const tuples: RawBuilder<unknown>[] = placed.map(({ row, block, pos }) => {
    const values: unknown[] = [Number(row.id), scopeNo, ...KEPT_COLUMNS.map((c) => row[c])];
    if (pg) values.push(row.search_text);
    values.push(block, pos);
    return sql`(${sql.join(values)})`;
  });
  await sql`insert into ${sql.raw(`${target.to}${target.records}`)} (${sql.raw(columns.join(', '))})
    values ${sql.join(tuples)}`.execute(db);
}
