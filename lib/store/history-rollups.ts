import 'server-only';
/**
 * The rollups Insights reads (migration 0010-insights): per scope and UTC hour, the records of each
 * combination of the values it breaks down and filters by, with their parts and price. Added to in
 * the transaction that stores the records (only for records really inserted: a record already held
 * is not counted twice), and dropped with them, so they always equal the records.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, HistoryRecordsTable, HistoryRollupsTable } from './db/schema';

export const HOUR_MS = 3_600_000;

/** The values a rollup row is kept per (besides scope and hour). */
export const ROLLUP_DIMENSIONS = [
  'status',
  'network_code',
  'network_name',
  'from_address',
  'api_key',
  'api_key_name',
  'enterprise_id',
  'delivery_method',
  'dlr_error_code',
  'parts',
  'currency',
] as const satisfies readonly (keyof HistoryRollupsTable & keyof HistoryRecordsTable)[];

export type RollupDimension = (typeof ROLLUP_DIMENSIONS)[number];

/** What a stored record gives its rollup row. */
export type RolledRecord = Pick<HistoryRecordsTable, RollupDimension | 'received_ms' | 'price_units'>;

/** The record columns to read back from an insert (RETURNING) to roll it up. */
export const ROLLED_COLUMNS = [...ROLLUP_DIMENSIONS, 'received_ms', 'price_units'] as const;

const KEY_COLUMNS = ['scope', 'hour_ms', ...ROLLUP_DIMENSIONS] as const;
/** Rows per upsert (17 values each: well under either dialect's parameter limit). */
const ROWS_PER_UPSERT = 500;

type Q = Kysely<Database> | Transaction<Database>;

/** Records summed per hour and combination (pure). */
export function foldRecords(scope: string, records: readonly RolledRecord[]): HistoryRollupsTable[] {
  const rows = new Map<string, HistoryRollupsTable>();
  for (const r of records) {
    const hour = Math.floor(r.received_ms / HOUR_MS) * HOUR_MS;
    const parts = r.parts ?? 0;
    const key = [hour, r.status, r.network_code, r.network_name, r.from_address, r.api_key, r.api_key_name, r.enterprise_id, r.delivery_method, r.dlr_error_code, parts, r.currency].join('\u0000');
    let row = rows.get(key);
    if (!row) {
      row = {
        scope,
        hour_ms: hour,
        status: r.status,
        network_code: r.network_code,
        network_name: r.network_name,
        from_address: r.from_address,
        api_key: r.api_key,
        api_key_name: r.api_key_name,
        enterprise_id: r.enterprise_id,
        delivery_method: r.delivery_method,
        dlr_error_code: r.dlr_error_code,
        parts,
        currency: r.currency,
        records: 0,
        parts_sum: 0,
        price_units: 0,
        priced: 0,
      };
      rows.set(key, row);
    }
    row.records += 1;
    row.parts_sum += parts;
    if (r.price_units !== null) {
      row.price_units += r.price_units;
      row.priced += 1;
    }
  }
  return [...rows.values()];
}

/** Adds newly stored records to the scope's rollups (call inside the transaction that stored them). */
export async function addToRollups(q: Q, scope: string, records: readonly RolledRecord[]): Promise<void> {
  const rows = foldRecords(scope, records);
  for (let i = 0; i < rows.length; i += ROWS_PER_UPSERT) {
    await q
      .insertInto('history_rollups')
      .values(rows.slice(i, i + ROWS_PER_UPSERT))
      .onConflict((oc) =>
        oc.columns([...KEY_COLUMNS]).doUpdateSet({
          records: sql`history_rollups.records + excluded.records`,
          parts_sum: sql`history_rollups.parts_sum + excluded.parts_sum`,
          price_units: sql`history_rollups.price_units + excluded.price_units`,
          priced: sql`history_rollups.priced + excluded.priced`,
        }),
      )
      .execute();
  }
}

/** Drops the scope's rollups, or those of the hours before `beforeMs` (a UTC day's start: days are whole hours). */
export async function deleteRollups(q: Q, scope: string, beforeMs?: number): Promise<void> {
  let del = q.deleteFrom('history_rollups').where('scope', '=', scope);
  if (beforeMs !== undefined) del = del.where('hour_ms', '<', beforeMs);
  await del.execute();
}
