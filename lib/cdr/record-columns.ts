/**
 * What the local history keeps of a record besides the record itself: the columns its filters and
 * sorts read, derived here once from the field list's values. Pure.
 */
import type { Cdr } from './schema';
import { SEARCHABLE_FIELDS } from './fields';
import { upstreamTimestampMs } from '../time/zones';
import { utcDayOf } from '../time/zone-days';
import { latencyBetween } from './latency';
import { searchFolded } from './typed-text';

/** The columns of a record's row in history_records (lib/db/schema.ts), without the row's id and scope. */
export interface RecordColumns {
  trx_id: string;
  received_ms: number;
  day: string;
  to_address: string;
  /** to_address reversed: "ends with 5678" is a prefix search on it. */
  to_rev: string;
  from_address: string;
  status: string;
  network_code: string;
  network_name: string;
  api_key: string;
  api_key_name: string;
  ref: string;
  enterprise_id: string;
  delivery_method: string;
  dlr_error_code: string;
  parts: number | null;
  /** The price in 1e-8 of the currency (exact: the upstream writes 8 decimals). */
  price_units: number | null;
  currency: string;
  submitted_ms: number | null;
  delivered_ms: number | null;
  latency_ms: number | null;
  /** What `q` searches, lower-cased. */
  search_text: string;
}

/** The columns by name, in the order the store writes them (a test holds them to recordColumns). */
export const RECORD_COLUMNS = [
  'trx_id',
  'received_ms',
  'day',
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
  'search_text',
] as const satisfies readonly (keyof RecordColumns)[];

/** A record to keep: its columns and the record itself (JSON). */
export type HistoryRecordRow = RecordColumns & { body: string };

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
const at = (v: unknown) => upstreamTimestampMs(text(v));

/** When the record was received (ms), or null when its time cannot be read (it cannot be placed). */
export function receivedMs(cdr: { date_received?: unknown }): number | null {
  return at(cdr.date_received);
}

/** The columns of a record; null when it has no readable received time (it could not be placed). */
export function recordColumns(cdr: Cdr): RecordColumns | null {
  const r = cdr as Record<string, unknown>;
  const received = receivedMs(cdr);
  if (received === null) return null;
  const submitted = at(r.date_submitted_to_mno);
  const delivered = at(r.date_delivered);
  const to = text(r.to_address);
  const partsRaw = r.how_many_message_parts;
  return {
    trx_id: text(r.trx_id).toLowerCase(),
    received_ms: received,
    day: utcDayOf(received),
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
    parts:
      typeof partsRaw === 'number'
        ? partsRaw
        : partsRaw === null || partsRaw === undefined || partsRaw === ''
          ? null
          : Number(partsRaw) || null,
    price_units: priceUnits(text(r.price)),
    currency: text(r.price_currency),
    submitted_ms: submitted,
    delivered_ms: delivered,
    latency_ms: latencyBetween(submitted, delivered),
    search_text: searchText(
      SEARCHABLE_FIELDS.map((k) => (k === 'message_body' && isEncrypted(r) ? '' : searchFolded(text(r[k])))),
    ),
  };
}

/**
 * An encrypted message's `message_body` is its ciphertext (base64): what people read, and search
 * for, is `unencrypted_message_body`. Searched, the ciphertext matched short words by chance ("ab"
 * found a tenth of the encrypted messages), records nobody could see a reason for.
 */
export function isEncrypted(r: Record<string, unknown>): boolean {
  return String(r.msg_encrypted ?? '').toLowerCase() === 'true';
}

/**
 * What `q` searches: each searchable field's text, one per line, without a field whose whole text
 * another one already holds (the order reference quoted in the message, the sender named in it).
 * Whatever is found in the one left out is found in the one that holds it, so a search finds the
 * same records, and the text index holds a reference's trigrams once a record, not twice (a
 * piece of a reference such as "-2026-1" was read about 15% faster, measured).
 */
export function searchText(values: readonly string[]): string {
  const present = values.filter((v, i) => v !== '' && values.indexOf(v) === i);
  return present.filter((v) => !present.some((other) => other !== v && other.includes(v))).join('\n');
}

/** A record as the local history keeps it, or null when it has no readable received time. */
export function historyRow(cdr: Cdr, body: string = JSON.stringify(cdr)): HistoryRecordRow | null {
  const columns = recordColumns(cdr);
  return columns ? { ...columns, body } : null;
}
