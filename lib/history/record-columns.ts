/**
 * What the local history keeps of a record besides the record itself: the columns its filters and
 * sorts read, derived here once from the field list's values. Pure.
 */
import type { Cdr } from '../cdr/schema';
import { SEARCHABLE_FIELDS } from '../cdr/fields';
import { parseUpstreamTimestamp } from '../time/zones';
import { deliveryLatencyMs } from '../cdr/latency';
import type { HistoryRecordsTable } from '../store/db/schema';
import { dayOf } from './days';

/** The columns of a record's row in history_records (their meaning is written there), without the row's id and scope. */
export type RecordColumns = Omit<HistoryRecordsTable, 'id' | 'scope'>;

const PRICE = /^(\d{1,10})(?:\.(\d{1,8}))?$/;

/**
 * A decimal price in 1e-8 units, exactly (the upstream writes 8 decimals; a float would round
 * sums): "3.30000000" → 330000000. Null for "" or anything else.
 */
export function priceUnits(value: string): number | null {
  const m = PRICE.exec(value.trim());
  if (!m) return null;
  const units = Number(m[1]) * 1e8 + Number((m[2] ?? '').padEnd(8, '0'));
  return Number.isSafeInteger(units) ? units : null;
}

/** 330000000 → "3.30000000": the inverse of priceUnits, for sums in the store's answers. */
export function formatPriceUnits(units: number): string {
  const sign = units < 0 ? '-' : '';
  const abs = Math.abs(units);
  return `${sign}${Math.floor(abs / 1e8)}.${String(abs % 1e8).padStart(8, '0')}`;
}

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));
const at = (v: unknown) => parseUpstreamTimestamp(text(v))?.getTime() ?? null;

/** The columns of a record; null when it has no readable received time (it could not be placed). */
export function recordColumns(cdr: Cdr): RecordColumns | null {
  const r = cdr as Record<string, unknown>;
  const received = at(r.date_received);
  if (received === null) return null;
  const submitted = at(r.date_submitted_to_mno);
  const delivered = at(r.date_delivered);
  const to = text(r.to_address);
  const partsRaw = r.how_many_message_parts;
  return {
    trx_id: text(r.trx_id).toLowerCase(),
    received_ms: received,
    day: dayOf(received),
    to_address: to,
    to_rev: [...to].reverse().join(''),
    from_address: text(r.from_address),
    status: text(r.delivery_status),
    network_code: text(r.network_code),
    network_name: text(r.network_name),
    api_key: text(r.api_key),
    api_key_name: text(r.api_key_name),
    ref: text(r.ref),
    enterprise_id: text(r.enterprise_id),
    delivery_method: text(r.delivery_method),
    dlr_error_code: text(r.dlr_error_code),
    parts: typeof partsRaw === 'number' ? partsRaw : partsRaw === null || partsRaw === undefined || partsRaw === '' ? null : Number(partsRaw) || null,
    price_units: priceUnits(text(r.price)),
    currency: text(r.price_currency),
    submitted_ms: submitted,
    delivered_ms: delivered,
    latency_ms: deliveryLatencyMs(r),
    search_text: SEARCHABLE_FIELDS.map((k) => text(r[k])).filter((v) => v !== '').join('\n').toLowerCase(),
  };
}
