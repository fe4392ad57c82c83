/**
 * A complete UTC day of the local history as columns: each record's id, received time, the
 * numbers a filter compares (parts, price, latency) and its low-cardinality text values as codes
 * into the day's dictionaries, in the table's order (received time, then trx_id).
 *
 * Why: a search or an Insights query that SQL answers by reading each matching row — free text
 * found 70,000 or 400,000 times in a month, a latency bound — spends almost all its time looking
 * up rows one by one (about 1.3 µs each) and sorting them. The same answer from a month's packs
 * is a scan of typed arrays: ids and times in received order already, the conditions tested on
 * codes. Only days whose copy is complete get a pack (their records no longer change); the rest
 * is answered by SQL. Pure: encoding, decoding and the scan; lib/history/store/day-pack-store.ts keeps them.
 */
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

export interface DayPack {
  size: number;
  ids: Float64Array;
  numbers: Record<PackNumberColumn, Float64Array>;
  codes: Record<PackTextColumn, Uint16Array | Uint32Array>;
  dictionaries: Record<PackTextColumn, string[]>;
  /** Bytes held in memory (the cache's bound). */
  bytes: number;
}

/** Written into every pack; a pack of another version is not read (the store builds it again). */
const VERSION = 1;

interface Header {
  v: number;
  n: number;
  dictionaries: Record<PackTextColumn, string[]>;
  /** Bytes per code of each text column: 2, or 4 for a day with more than 65,536 values. */
  widths: Record<PackTextColumn, 2 | 4>;
}

const align8 = (n: number) => Math.ceil(n / 8) * 8;

/** A day's records (in the table's order) as one buffer. */
export function encodePack(rows: readonly PackRow[]): Buffer {
  const n = rows.length;
  const dictionaries = {} as Record<PackTextColumn, string[]>;
  const widths = {} as Record<PackTextColumn, 2 | 4>;
  const codeArrays: (Uint16Array | Uint32Array)[] = [];
  for (const column of PACK_TEXT_COLUMNS) {
    const index = new Map<string, number>();
    const codes = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      const value = rows[i]![column];
      let code = index.get(value);
      if (code === undefined) index.set(value, (code = index.size));
      codes[i] = code;
    }
    dictionaries[column] = [...index.keys()];
    widths[column] = index.size > 0x10000 ? 4 : 2;
    codeArrays.push(widths[column] === 4 ? codes : Uint16Array.from(codes));
  }
  const header = Buffer.from(JSON.stringify({ v: VERSION, n, dictionaries, widths } satisfies Header));
  const numberArrays = [
    Float64Array.from(rows, (r) => Number(r.id)),
    ...PACK_NUMBER_COLUMNS.map((c) => Float64Array.from(rows, (r) => r[c] ?? NaN)),
  ];
  const sections = [...numberArrays, ...codeArrays];
  const start = align8(4 + header.length);
  const out = Buffer.alloc(sections.reduce((at, s) => align8(at + s.byteLength), start));
  out.writeUInt32LE(header.length, 0);
  header.copy(out, 4);
  let at = start;
  for (const s of sections) {
    out.set(new Uint8Array(s.buffer, s.byteOffset, s.byteLength), at);
    at = align8(at + s.byteLength);
  }
  return out;
}

/** The pack in a buffer, or null when it was written by another version. */
export function decodePack(bytes: Uint8Array): DayPack | null {
  // Copied into a buffer of its own: typed arrays need their offsets aligned, a driver's buffer may not be.
  const own = new Uint8Array(bytes.byteLength);
  own.set(bytes);
  const view = new DataView(own.buffer);
  const headerLength = view.getUint32(0, true);
  const header = JSON.parse(new TextDecoder().decode(own.subarray(4, 4 + headerLength))) as Header;
  if (header.v !== VERSION) return null;
  const n = header.n;
  let at = align8(4 + headerLength);
  const take = <T>(make: (buffer: ArrayBuffer, offset: number, length: number) => T, width: number): T => {
    const array = make(own.buffer, at, n);
    at = align8(at + n * width);
    return array;
  };
  const f64 = () => take((b, o, l) => new Float64Array(b, o, l), 8);
  const ids = f64();
  const numbers = {} as Record<PackNumberColumn, Float64Array>;
  for (const c of PACK_NUMBER_COLUMNS) numbers[c] = f64();
  const codes = {} as Record<PackTextColumn, Uint16Array | Uint32Array>;
  for (const c of PACK_TEXT_COLUMNS)
    codes[c] =
      header.widths[c] === 4
        ? take((b, o, l) => new Uint32Array(b, o, l), 4)
        : take((b, o, l) => new Uint16Array(b, o, l), 2);
  return { size: n, ids, numbers, codes, dictionaries: header.dictionaries, bytes: own.byteLength };
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

  constructor(ids: readonly number[]) {
    let min = Infinity;
    let max = -Infinity;
    for (const id of ids) {
      if (id < min) min = id;
      if (id > max) max = id;
    }
    this.first = ids.length > 0 ? min : 0;
    this.bits = new Uint32Array(ids.length > 0 ? Math.floor((max - min) / 32) + 1 : 0);
    for (const id of ids) {
      const at = id - this.first;
      this.bits[at >>> 5]! |= 1 << (at & 31);
    }
    this.size = ids.length;
  }

  /**
   * Writes into `out` from `at` the positions in [start, end) of `ids` whose id is in the set;
   * answers where it stopped. One tight loop over a day's ids (a month of them for a free text
   * found tens of thousands of times: 5 ms where a call per record took 16).
   */
  positionsIn(ids: Float64Array, start: number, end: number, out: Uint32Array, at: number): number {
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
function firstAtOrAfter(received: Float64Array, ms: number): number {
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
