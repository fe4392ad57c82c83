/**
 * The records of the local history as they came (their JSON), kept compressed a block at a time:
 * up to BLOCK_RECORDS records of one scope and one UTC day, joined by line ends and compressed
 * together with DEFLATE against a fixed dictionary of the record's shape. A record of about 1.1 KB
 * takes about 130 bytes this way (measured on the simulator's records: 1,146 bytes each as JSON,
 * 156 in blocks of 32 without the dictionary, 193 in blocks of 16), where each record alone
 * compressed takes about 400. A page of a search reads the few blocks its records lie in: about
 * 0.05 ms to inflate one.
 *
 * Blocks never mix days or scopes: a day dropped (the start day moved, HISTORY_MAX_DAYS) or a
 * copy deleted takes its blocks whole, so no deleted record stays behind inside a block that is
 * kept. The dictionary holds the field names and common values only, never a record's content.
 *
 * Pure: the store keeps blocks in `history_body_blocks` and each record's place in them
 * (`body_block`, `body_pos`) on its row.
 */
import { deflateRawSync, inflateRawSync, constants } from 'node:zlib';

/** Records per block: small enough that a page of records in any order inflates little it does not show. */
export const BLOCK_RECORDS = 32;

/**
 * Written into every block (its first byte): a block of another format is refused, not misread. 1:
 * DEFLATE (raw) with BODY_DICTIONARY_1. A new format gets a new number and keeps reading this one.
 */
const FORMAT_DEFLATE_DICTIONARY_1 = 1;

/**
 * The record's shape as the Report API writes it (seed §2.2, in its order), with the values most
 * records share: DEFLATE finds a field name or value here instead of spelling it out, most of all
 * in a block's first record. Never changed once written (blocks compressed with it must inflate
 * the same): a better one would be format 2.
 */
const BODY_DICTIONARY_1 = Buffer.from(
  [
    '"delivery_status":"UNDELIV","delivery_status":"EXPIRED","delivery_status":"REJECTD","delivery_status":"ACCEPTD",',
    '"delivery_method":"Dashboard","delivery_method":"Campaign","delivery_method":"API",',
    '"network_name":"NTT docomo","network_name":"SoftBank","network_name":"KDDI","network_name":"Rakuten Mobile",',
    '"price_currency":"USD","price_currency":"JPY","dcs":"0","dcs":"8","how_many_message_parts":1}',
    '{"message_body":"","msg_encrypted":"false","msg_encrypted":"true","unencrypted_message_body":"",',
    '"_links":{"self":{"href":"/cdr/v1/report/cdr/sms/transaction-history/mt/"}},"type":"MT","trx_id":"',
    '","date_received":"2026-01-01T00:00:00.000+0000","date_submitted_to_mno":"2026-01-01T00:00:00.000+0000",',
    '"api_key":"","api_key_name":"","enterprise_id":"","entity_id":"","submitted_by_user_id":"",',
    '"submitted_by_user_name":"","submitted_by_user_email":"","submitted_by_admin_user_id":"","executed_by":"api-key:',
    '","bulk_campaign_id":"","ref":"","from_address":"","to_address":"81","network_code":"440","network_name":"',
    '","message_length":"","delivery_status":"DELIVRD","date_delivered":"2026-01-01T00:00:00.000+0000",',
    '"dlr_error_code":"000","dlr_reason":"","delivery_method":"API","price":"0.00000000","price_currency":"JPY",',
    '"dcs":"8","how_many_message_parts":2}\n',
  ].join(''),
);

/** A block as stored: its bytes, and how many records it holds. */
export interface BodyBlock {
  data: Buffer;
  records: number;
}

/**
 * Compresses records (their JSON, none holding a raw line end, as JSON never does) into one
 * block; a record's place in `bodies` is its place in the block.
 */
export function encodeBlock(bodies: readonly string[]): BodyBlock {
  if (bodies.length === 0 || bodies.length > BLOCK_RECORDS)
    throw new Error(`a block holds 1 to ${BLOCK_RECORDS} records, not ${bodies.length}`);
  const text = Buffer.from(bodies.join('\n'));
  const packed = deflateRawSync(text, {
    level: constants.Z_DEFAULT_COMPRESSION,
    dictionary: BODY_DICTIONARY_1,
  });
  const data = Buffer.allocUnsafe(packed.length + 1);
  data[0] = FORMAT_DEFLATE_DICTIONARY_1;
  packed.copy(data, 1);
  return { data, records: bodies.length };
}

/** Every record of a block, in its order. */
export function decodeBlock(data: Uint8Array): string[] {
  const format = data[0];
  if (format !== FORMAT_DEFLATE_DICTIONARY_1)
    throw new Error(
      `a block of the local history's records has format ${format}, which this version cannot read: run the version that wrote it`,
    );
  const text = inflateRawSync(data.subarray(1), { dictionary: BODY_DICTIONARY_1 }).toString('utf8');
  return text.split('\n');
}

/** Items cut into runs of at most `size`, each run of one `key` (a block's day): consecutive items of a key stay together. */
export function blocksOf<T>(items: readonly T[], key: (item: T) => string, size = BLOCK_RECORDS): T[][] {
  const byKey = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = byKey.get(k);
    if (list) list.push(item);
    else byKey.set(k, [item]);
  }
  const runs: T[][] = [];
  for (const list of byKey.values()) for (let i = 0; i < list.length; i += size) runs.push(list.slice(i, i + size));
  return runs;
}
