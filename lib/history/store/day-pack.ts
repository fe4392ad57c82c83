/**
 * A complete UTC day of the local history as columns: each record's id, received time, the
 * numbers a filter compares (parts, price, latency) and its low-cardinality text values as codes
 * into the day's dictionaries, in the table's order (received time, then trx_id).
 *
 * Why: a search or an Insights query that SQL answers by reading each matching row — free text
 * found 70,000 or 400,000 times in a month, a latency bound — spends almost all its time looking
 * up rows one by one (about 1.3 µs each) and sorting them. The same answer from a month's packs
 * is a scan of typed arrays: ids and times in received order already, the conditions tested on
 * codes. Only days whose local history is complete get a pack (their records no longer change); the rest
 * is answered by SQL. Pure: encoding, decoding and the scan; lib/history/store/day-pack-store.ts keeps them.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { HistoryRecordsTable } from '../../db/schema';
import { ROLLUP_DIMENSIONS, type RollupDimension } from './rollups';

export type PackTextColumn = Exclude<RollupDimension, 'parts'>;
/**
 * Text values kept as codes: the rollups' values (few distinct ones a day: statuses, networks,
 * senders, keys), parts aside (a number here).
 */
export const PACK_TEXT_COLUMNS = ROLLUP_DIMENSIONS.filter((c): c is PackTextColumn => c !== 'parts');
/** Numbers, absent ones as NaN (which no comparison passes, as NULL in SQL). */
export const PACK_NUMBER_COLUMNS = ['received_ms', 'parts', 'price_units', 'latency_ms'] as const;
export type PackNumberColumn = (typeof PACK_NUMBER_COLUMNS)[number];

/** A condition of a search (history-search.ts Condition), as far as a pack reads it. */
export interface PackCondition {
  column: string;
  op: string;
  value: string | number;
}

/** A record as a pack is built from: its row's id (PostgreSQL's bigint comes as text) and columns. */
export type PackRow = { id: number | string } & Pick<HistoryRecordsTable, PackTextColumn | PackNumberColumn>;

/** Codes of a text column: one byte while the day has at most 256 values of it. */
export type PackCodes = Uint8Array | Uint16Array | Uint32Array;

export interface DayPack {
  size: number;
  /** Record ids (Uint32Array while they fit, as they do below four billion records). */
  ids: Uint32Array | Float64Array;
  /** received_ms, price_units and latency_ms as Float64Array, parts as Float32Array (exact for any part count). */
  numbers: Record<PackNumberColumn, Float64Array | Float32Array>;
  codes: Record<PackTextColumn, PackCodes>;
  dictionaries: Record<PackTextColumn, string[]>;
  /** Bytes held in memory (the cache's bound). */
  bytes: number;
}

/**
 * Written into every pack; a pack of an unknown version is not read (the store builds it again).
 * 1: every number as Float64, codes as Uint16/Uint32, not compressed (about 60 bytes a record).
 * 2: compressed (DEFLATE), ids and received times as offsets in 32 bits, parts in one byte,
 *    latencies in 32 bits, codes in one byte where they fit: about 15 bytes a record on disk and 42
 *    in memory, so a year of a busy account's packs (3,000,000 records) stays in the cache.
 */
const VERSION = 2;

interface HeaderV1 {
  v: 1;
  n: number;
  dictionaries: Record<PackTextColumn, string[]>;
  widths: Record<PackTextColumn, 2 | 4>;
}

interface HeaderV2 {
  v: 2;
  n: number;
  dictionaries: Record<PackTextColumn, string[]>;
  /** Bytes per code of each text column. */
  widths: Record<PackTextColumn, 1 | 2 | 4>;
  /** ids: stored as offsets from `idBase` in 32 bits (`wideIds`: as Float64 when they do not fit). */
  idBase: number;
  wideIds: boolean;
  /** received_ms: offsets from `receivedBase` in 32 bits (a day is 86,400,000 ms). */
  receivedBase: number;
  /** parts: one byte (255: none) unless a part count reaches 255 (`wideParts`: Float32). */
  wideParts: boolean;
}

/** Absent values in the 32-bit and 8-bit columns (NaN in memory). */
const NONE_32 = 0xffffffff;
const NONE_8 = 0xff;

const align8 = (n: number) => Math.ceil(n / 8) * 8;

/** Arrays laid one after another, each at an 8-byte boundary, after a JSON header. */
function layout(header: object, sections: readonly ArrayBufferView[]): Buffer {
  const head = Buffer.from(JSON.stringify(header));
  const start = align8(4 + head.length);
  const out = Buffer.alloc(sections.reduce((at, s) => align8(at + s.byteLength), start));
  out.writeUInt32LE(head.length, 0);
  head.copy(out, 4);
  let at = start;
  for (const s of sections) {
    out.set(new Uint8Array(s.buffer, s.byteOffset, s.byteLength), at);
    at = align8(at + s.byteLength);
  }
  return out;
}

function codesOf(rows: readonly PackRow[], column: PackTextColumn): { codes: PackCodes; values: string[] } {
  const index = new Map<string, number>();
  const all = new Uint32Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const value = rows[i]![column];
    let code = index.get(value);
    if (code === undefined) index.set(value, (code = index.size));
    all[i] = code;
  }
  const values = [...index.keys()];
  const codes = values.length <= 0x100 ? Uint8Array.from(all) : values.length <= 0x10000 ? Uint16Array.from(all) : all;
  return { codes, values };
}

/** A day's records (in the table's order) as one buffer, compressed. */
export function encodePack(rows: readonly PackRow[]): Buffer {
  const n = rows.length;
  const dictionaries = {} as Record<PackTextColumn, string[]>;
  const widths = {} as Record<PackTextColumn, 1 | 2 | 4>;
  const codeArrays: PackCodes[] = [];
  for (const column of PACK_TEXT_COLUMNS) {
    const { codes, values } = codesOf(rows, column);
    dictionaries[column] = values;
    widths[column] = codes.BYTES_PER_ELEMENT as 1 | 2 | 4;
    codeArrays.push(codes);
  }
  const ids = rows.map((r) => Number(r.id));
  const idBase = n > 0 ? Math.min(...ids) : 0;
  // Offsets in 32 bits, and ids that fit 32 bits themselves (in memory): else Float64 both ways.
  const wideIds = ids.some((id) => id >= NONE_32);
  const receivedBase = n > 0 ? Math.min(...rows.map((r) => r.received_ms)) : 0;
  const wideParts = rows.some(
    (r) => r.parts !== null && (r.parts < 0 || r.parts >= NONE_8 || !Number.isInteger(r.parts)),
  );
  const header: HeaderV2 = { v: 2, n, dictionaries, widths, idBase, wideIds, receivedBase, wideParts };
  const sections: ArrayBufferView[] = [
    wideIds ? Float64Array.from(ids) : Uint32Array.from(ids, (id) => id - idBase),
    Uint32Array.from(rows, (r) => r.received_ms - receivedBase),
    wideParts
      ? Float32Array.from(rows, (r) => r.parts ?? NaN)
      : Uint8Array.from(rows, (r) => (r.parts === null ? NONE_8 : r.parts)),
    Float64Array.from(rows, (r) => r.price_units ?? NaN),
    Uint32Array.from(rows, (r) =>
      r.latency_ms === null || r.latency_ms < 0 || r.latency_ms >= NONE_32 ? NONE_32 : r.latency_ms,
    ),
    ...codeArrays,
  ];
  return deflateRawSync(layout(header, sections));
}

/** Reads the arrays a header describes, in order, from `own` (aligned as layout wrote them). */
function reader(own: Uint8Array, headerLength: number) {
  let at = align8(4 + headerLength);
  return <T extends ArrayBufferView>(make: (buffer: ArrayBuffer, offset: number) => T, bytes: number): T => {
    const array = make(own.buffer as ArrayBuffer, at);
    at = align8(at + bytes);
    return array;
  };
}

/** The pack in a buffer, or null when it was written by a version this one does not read. */
export function decodePack(bytes: Uint8Array): DayPack | null {
  // Version 1 was not compressed: its first four bytes are its header's length, a JSON object follows.
  const plain = bytes.byteLength > 5 && bytes[4] === 0x7b ? bytes : null;
  let own: Uint8Array;
  if (plain) {
    // Copied into a buffer of its own: typed arrays need their offsets aligned, a driver's buffer may not be.
    own = new Uint8Array(plain.byteLength);
    own.set(plain);
  } else {
    try {
      own = new Uint8Array(inflateRawSync(bytes));
    } catch {
      return null;
    }
  }
  const view = new DataView(own.buffer, own.byteOffset, own.byteLength);
  const headerLength = view.getUint32(0, true);
  const header = JSON.parse(new TextDecoder().decode(own.subarray(4, 4 + headerLength))) as HeaderV1 | HeaderV2;
  const n = header.n;
  const take = reader(own, headerLength);
  const codesOfWidth = (width: 1 | 2 | 4): PackCodes =>
    take(
      (b, o) =>
        width === 4 ? new Uint32Array(b, o, n) : width === 2 ? new Uint16Array(b, o, n) : new Uint8Array(b, o, n),
      n * width,
    );
  const f64 = () => take((b, o) => new Float64Array(b, o, n), n * 8);
  const u32 = () => take((b, o) => new Uint32Array(b, o, n), n * 4);
  if (header.v === 1) {
    const ids = f64();
    const numbers = {} as DayPack['numbers'];
    for (const c of PACK_NUMBER_COLUMNS) numbers[c] = f64();
    const codes = {} as Record<PackTextColumn, PackCodes>;
    for (const c of PACK_TEXT_COLUMNS) codes[c] = codesOfWidth(header.widths[c]);
    return { size: n, ids, numbers, codes, dictionaries: header.dictionaries, bytes: own.byteLength };
  }
  if (header.v !== VERSION) return null;
  let ids: Uint32Array | Float64Array;
  if (header.wideIds) ids = f64();
  else {
    const offsets = u32();
    ids = header.idBase === 0 ? offsets : Uint32Array.from(offsets, (o) => o + header.idBase);
  }
  const receivedOffsets = u32();
  const received = Float64Array.from(receivedOffsets, (o) => o + header.receivedBase);
  let parts: Float32Array;
  if (header.wideParts) parts = take((b, o) => new Float32Array(b, o, n), n * 4);
  else {
    const small = take((b, o) => new Uint8Array(b, o, n), n);
    parts = Float32Array.from(small, (p) => (p === NONE_8 ? NaN : p));
  }
  const price = f64();
  const latency = Float64Array.from(u32(), (ms) => (ms === NONE_32 ? NaN : ms));
  const codes = {} as Record<PackTextColumn, PackCodes>;
  for (const c of PACK_TEXT_COLUMNS) codes[c] = codesOfWidth(header.widths[c]);
  const memory =
    ids.byteLength +
    received.byteLength +
    parts.byteLength +
    price.byteLength +
    latency.byteLength +
    PACK_TEXT_COLUMNS.reduce((sum, c) => sum + codes[c].byteLength, 0);
  return {
    size: n,
    ids,
    numbers: { received_ms: received, parts, price_units: price, latency_ms: latency },
    codes,
    dictionaries: header.dictionaries,
    bytes: memory,
  };
}

const TEXT = new Set<string>(PACK_TEXT_COLUMNS);
const NUMBER = new Set<string>(PACK_NUMBER_COLUMNS);

/**
 * Whether packs can answer these conditions: "equals" on a kept text value or number, bounds on a
 * kept number. (A phone number, its last digits, a reference or a trx_id pick a few records each,
 * which their own indexes find faster: those stay with SQL.)
 */
export function packsServe(where: readonly PackCondition[]): boolean {
  return where.every(
    (c) =>
      (TEXT.has(c.column) && c.op === '=') ||
      (NUMBER.has(c.column) && (c.op === '=' || c.op === '>=' || c.op === '<=')),
  );
}

/** Ids (any order) as a set to test a pack's ids against: bits over their span. */
export class IdSet {
  private readonly bits: Uint32Array;
  private readonly first: number;
  readonly size: number;

  constructor(ids: ArrayLike<number>) {
    let min = Infinity;
    let max = -Infinity;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      if (id < min) min = id;
      if (id > max) max = id;
    }
    this.first = ids.length > 0 ? min : 0;
    this.bits = new Uint32Array(ids.length > 0 ? Math.floor((max - min) / 32) + 1 : 0);
    for (let i = 0; i < ids.length; i++) {
      const at = ids[i]! - this.first;
      this.bits[at >>> 5]! |= 1 << (at & 31);
    }
    this.size = ids.length;
  }

  /**
   * Writes into `out` from `at` the positions in [start, end) of `ids` whose id is in the set;
   * answers where it stopped. One tight loop over a day's ids (a month of them for a free text
   * found tens of thousands of times: 5 ms where a call per record took 16).
   */
  positionsIn(ids: ArrayLike<number>, start: number, end: number, out: Uint32Array, at: number): number {
    const { bits, first } = this;
    const span = bits.length * 32;
    for (let i = start; i < end; i++) {
      const x = ids[i]! - first;
      if (x >= 0 && x < span && (bits[x >>> 5]! & (1 << (x & 31))) !== 0) out[at++] = i;
    }
    return at;
  }
}

/** What a scan keeps: records in these ranges (inclusive ms) that pass every condition and, when given, whose id is in `ids`. */
export interface PackFilter {
  ranges: readonly { from: number; to: number }[];
  where: readonly PackCondition[];
  ids?: IdSet;
}

/** The first position whose received time is at least `ms` (received times ascend). */
function firstAtOrAfter(received: ArrayLike<number>, ms: number): number {
  let lo = 0;
  let hi = received.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (received[mid]! < ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The positions of the pack's records that the filter keeps, in the table's order (ascending) or
 * its reverse. `ranges` must be joined (lib/query/ranges.ts joinRanges). Conditions are tested
 * on codes: a text value the day never saw keeps nothing.
 */
export function scanPack(pack: DayPack, filter: PackFilter, order: 'asc' | 'desc'): Uint32Array {
  const tests: ((i: number) => boolean)[] = [];
  for (const c of filter.where) {
    if (TEXT.has(c.column)) {
      const column = c.column as PackTextColumn;
      const code = pack.dictionaries[column].indexOf(String(c.value));
      if (code < 0) return new Uint32Array(0);
      const codes = pack.codes[column];
      tests.push((i) => codes[i] === code);
    } else {
      const values = pack.numbers[c.column as PackNumberColumn];
      const v = Number(c.value);
      tests.push(
        c.op === '>=' ? (i) => values[i]! >= v : c.op === '<=' ? (i) => values[i]! <= v : (i) => values[i] === v,
      );
    }
  }
  const { ids } = filter;
  const received = pack.numbers.received_ms;
  const spans = filter.ranges.map(
    (r) => [firstAtOrAfter(received, r.from), firstAtOrAfter(received, r.to + 1)] as const,
  );
  const kept = new Uint32Array(spans.reduce((n, [start, end]) => n + Math.max(0, end - start), 0));
  const passes = (i: number): boolean => {
    for (let t = 0; t < tests.length; t++) if (!tests[t]!(i)) return false;
    return true;
  };
  let count = 0;
  if (ids) {
    // The ids first (they keep a few in a hundred: a free text), then the conditions on those.
    for (const [start, end] of spans) if (end > start) count = ids.positionsIn(pack.ids, start, end, kept, count);
    let stay = 0;
    for (let j = 0; j < count; j++) if (passes(kept[j]!)) kept[stay++] = kept[j]!;
    count = stay;
  } else {
    for (const [start, end] of spans) for (let i = start; i < end; i++) if (passes(i)) kept[count++] = i;
  }
  const out = kept.subarray(0, count);
  return order === 'desc' ? out.reverse() : out;
}
