import 'server-only';
/**
 * The records themselves (their JSON) out of their blocks (lib/db/migrations/body-blocks.ts): a
 * page's records by id, a record by trx_id, and a field of many records for the rare order by a
 * field without a column. Each block a page touches is read and inflated once.
 */
import type { Kysely } from 'kysely';
import { decodeBlock } from '../../db/migrations/body-blocks';
import type { Database } from '../../db/schema';
import { scopeNoSql } from './scopes';

/** Ids per statement: well under either dialect's limit of values. */
const IDS_PER_READ = 5_000;

/** The blocks' records, by block number. */
async function blocksOf(db: Kysely<Database>, blockNos: readonly number[]): Promise<Map<number, string[]>> {
  const blocks = new Map<number, string[]>();
  for (let i = 0; i < blockNos.length; i += IDS_PER_READ) {
    const rows = await db
      .selectFrom('history_body_blocks')
      .select(['block_no', 'data'])
      .where('block_no', 'in', blockNos.slice(i, i + IDS_PER_READ))
      .execute();
    for (const r of rows) blocks.set(Number(r.block_no), decodeBlock(r.data));
  }
  return blocks;
}

/** The records (JSON) of these ids, in their order (PostgreSQL's bigint ids may come as text). */
export async function bodiesOf(db: Kysely<Database>, ids: readonly (number | string)[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const places = new Map<string, { block: number; pos: number }>();
  for (let i = 0; i < ids.length; i += IDS_PER_READ) {
    const rows = await db
      .selectFrom('history_records')
      .select(['id', 'body_block', 'body_pos'])
      .where('id', 'in', ids.slice(i, i + IDS_PER_READ).map(Number))
      .execute();
    for (const r of rows) places.set(String(r.id), { block: Number(r.body_block), pos: r.body_pos });
  }
  const blocks = await blocksOf(db, [...new Set([...places.values()].map((p) => p.block))]);
  return ids.map((id) => {
    const place = places.get(String(id));
    const body = place ? blocks.get(place.block)?.[place.pos] : undefined;
    if (body === undefined) throw new Error(`the local history lost the record of id ${id}`);
    return body;
  });
}

/** The record (JSON) of a trx_id in the scope's local history, or null. */
export async function recordOf(db: Kysely<Database>, scopeNo: number, trxId: string): Promise<string | null> {
  const row = await db
    .selectFrom('history_records')
    .select(['body_block', 'body_pos'])
    .where('scope_no', '=', scopeNoSql(scopeNo))
    .where('trx_id', '=', trxId.toLowerCase())
    .executeTakeFirst();
  if (!row) return null;
  const blocks = await blocksOf(db, [Number(row.body_block)]);
  return blocks.get(Number(row.body_block))?.[row.body_pos] ?? null;
}

/** A field of each record of these ids, read from the record (for an order by a field with no column). */
export async function fieldOf(
  db: Kysely<Database>,
  ids: readonly (number | string)[],
  field: string,
): Promise<Map<string, unknown>> {
  const bodies = await bodiesOf(db, ids);
  const out = new Map<string, unknown>();
  ids.forEach((id, i) => out.set(String(id), (JSON.parse(bodies[i]!) as Record<string, unknown>)[field]));
  return out;
}
