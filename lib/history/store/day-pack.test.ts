/**
 * A day pack gives back exactly what it was built from, and its scan keeps what SQL's WHERE would:
 * the ranges (both ends inclusive), "equals" on text and numbers, bounds that absent values never
 * pass, the ids of a text search, in the table's order or its reverse.
 */
import { describe, expect, it } from 'vitest';
import {
  decodePack,
  encodePack,
  IdSet,
  PACK_NUMBER_COLUMNS,
  PACK_TEXT_COLUMNS,
  packsServe,
  scanPack,
  type PackRow,
} from './day-pack';

const T0 = Date.parse('2026-11-01T00:00:00Z');
const DAY = 86_400_000;

function row(i: number, over: Partial<PackRow> = {}): PackRow {
  return {
    id: 100 + i * 3,
    received_ms: T0 + i * 60_000,
    status: i % 3 === 0 ? 'UNDELIV' : 'DELIVRD',
    network_code: i % 2 === 0 ? '44010' : '44020',
    network_name: i % 2 === 0 ? 'NTT docomo' : 'SoftBank',
    from_address: 'SAKURA',
    api_key: 'key',
    api_key_name: 'Main',
    enterprise_id: 'ent',
    delivery_method: 'API',
    dlr_error_code: i % 3 === 0 ? '001' : '000',
    currency: 'JPY',
    parts: i % 4 === 0 ? null : (i % 2) + 1,
    price_units: i % 5 === 0 ? null : 330_000_000 + i,
    latency_ms: i % 3 === 0 ? null : i * 1000,
    ...over,
  };
}

const ROWS = Array.from({ length: 40 }, (_, i) => row(i));
const PACK = decodePack(encodePack(ROWS))!;
const positions = (kept: Uint32Array) => [...kept].map((i) => (PACK.ids[i]! - 100) / 3);

describe('a day pack', () => {
  it('gives back every id, number and text value it was built from, absent numbers as NaN', () => {
    expect(PACK.size).toBe(40);
    ROWS.forEach((r, i) => {
      expect(PACK.ids[i]).toBe(r.id);
      expect(PACK.numbers.received_ms[i]).toBe(r.received_ms);
      expect(PACK.numbers.parts[i]).toBe(r.parts ?? NaN);
      expect(PACK.numbers.price_units[i]).toBe(r.price_units ?? NaN);
      expect(PACK.numbers.latency_ms[i]).toBe(r.latency_ms ?? NaN);
      expect(PACK.dictionaries.status[PACK.codes.status[i]!]).toBe(r.status);
      expect(PACK.dictionaries.network_name[PACK.codes.network_name[i]!]).toBe(r.network_name);
    });
  });

  it('keeps a day in about a quarter of the bytes the first version took, and still reads a pack of that version', () => {
    const day = Array.from({ length: 8_000 }, (_, i) =>
      row(i % 1_000, { id: 1_000_000 + i, received_ms: T0 + i * 10_000 }),
    );
    const packed = encodePack(day);
    // Version 1: a JSON header, then every number as Float64 and every code as Uint16, uncompressed.
    const dictionaries = Object.fromEntries(PACK_TEXT_COLUMNS.map((c) => [c, [...new Set(day.map((r) => r[c]))]]));
    const header = Buffer.from(
      JSON.stringify({
        v: 1,
        n: day.length,
        dictionaries,
        widths: Object.fromEntries(PACK_TEXT_COLUMNS.map((c) => [c, 2])),
      }),
    );
    const sections = [
      Float64Array.from(day, (r) => Number(r.id)),
      ...PACK_NUMBER_COLUMNS.map((c) => Float64Array.from(day, (r) => r[c] ?? NaN)),
      ...PACK_TEXT_COLUMNS.map((c) => Uint16Array.from(day, (r) => dictionaries[c]!.indexOf(r[c]))),
    ];
    const align = (n: number) => Math.ceil(n / 8) * 8;
    const v1 = Buffer.alloc(sections.reduce((at, a) => align(at + a.byteLength), align(4 + header.length)));
    v1.writeUInt32LE(header.length, 0);
    header.copy(v1, 4);
    let at = align(4 + header.length);
    for (const a of sections) {
      v1.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), at);
      at = align(at + a.byteLength);
    }
    expect(packed.byteLength).toBeLessThan(v1.byteLength / 4);
    const [now, before] = [decodePack(packed)!, decodePack(v1)!];
    for (const pack of [now, before]) {
      expect(Array.from(pack.ids)).toEqual(day.map((r) => r.id));
      for (const c of PACK_NUMBER_COLUMNS) expect(Array.from(pack.numbers[c]), c).toEqual(day.map((r) => r[c] ?? NaN));
      for (const c of PACK_TEXT_COLUMNS)
        expect(
          Array.from(pack.codes[c], (code) => pack.dictionaries[c][code]),
          c,
        ).toEqual(day.map((r) => r[c]));
    }
    // In memory, the smaller arrays: about 42 bytes a record against 60.
    expect(now.bytes / day.length).toBeLessThan(45);
  });

  it('reads ids as PostgreSQL gives them (text), and a day with more than 65,536 values of a column', () => {
    const many = Array.from({ length: 70_000 }, (_, i) =>
      row(i, { id: String(5_000_000_000 + i), from_address: `S${i}` }),
    );
    const pack = decodePack(encodePack(many))!;
    expect(pack.codes.from_address).toBeInstanceOf(Uint32Array);
    expect(pack.dictionaries.from_address[pack.codes.from_address[69_999]!]).toBe('S69999');
    expect(pack.ids[69_999]).toBe(5_000_069_999);
  });

  it('is not read when written by another version of the format', () => {
    const bytes = encodePack(ROWS.slice(0, 2));
    const headerLength = bytes.readUInt32LE(0);
    const header = bytes
      .subarray(4, 4 + headerLength)
      .toString()
      .replace('"v":1', '"v":9');
    bytes.write(header, 4);
    expect(decodePack(bytes)).toBeNull();
  });

  it('keeps the records in the ranges, both ends included, in either order', () => {
    const ranges = [
      { from: T0 + 2 * 60_000, to: T0 + 4 * 60_000 },
      { from: T0 + 10 * 60_000, to: T0 + 11 * 60_000 - 1 },
    ];
    expect(positions(scanPack(PACK, { ranges, where: [] }, 'asc'))).toEqual([2, 3, 4, 10]);
    expect(positions(scanPack(PACK, { ranges, where: [] }, 'desc'))).toEqual([10, 4, 3, 2]);
    expect(positions(scanPack(PACK, { ranges: [{ from: T0 - 5, to: T0 - 1 }], where: [] }, 'asc'))).toEqual([]);
  });

  it('tests conditions as SQL does: absent values pass no bound, an unknown value keeps nothing', () => {
    const all = [{ from: T0, to: T0 + DAY }];
    const keep = (where: Parameters<typeof scanPack>[1]['where']) =>
      positions(scanPack(PACK, { ranges: all, where }, 'asc'));
    const expected = (test: (r: PackRow) => boolean) => ROWS.map((r, i) => (test(r) ? i : -1)).filter((i) => i >= 0);
    expect(
      keep([
        { column: 'status', op: '=', value: 'UNDELIV' },
        { column: 'network_code', op: '=', value: '44020' },
      ]),
    ).toEqual(expected((r) => r.status === 'UNDELIV' && r.network_code === '44020'));
    expect(keep([{ column: 'latency_ms', op: '>=', value: 20_000 }])).toEqual(
      expected((r) => r.latency_ms !== null && r.latency_ms >= 20_000),
    );
    expect(keep([{ column: 'price_units', op: '<=', value: 330_000_010 }])).toEqual(
      expected((r) => r.price_units !== null && r.price_units <= 330_000_010),
    );
    expect(keep([{ column: 'parts', op: '=', value: 2 }])).toEqual(expected((r) => r.parts === 2));
    expect(keep([{ column: 'status', op: '=', value: 'EXPIRED' }])).toEqual([]);
  });

  it('keeps only the ids of a text search', () => {
    const ids = new IdSet([106, 130, 9_999, 100 + 39 * 3]);
    expect(positions(scanPack(PACK, { ranges: [{ from: T0, to: T0 + DAY }], where: [], ids }, 'asc'))).toEqual([
      2, 10, 39,
    ]);
    expect(
      positions(scanPack(PACK, { ranges: [{ from: T0, to: T0 + DAY }], where: [], ids: new IdSet([]) }, 'asc')),
    ).toEqual([]);
  });

  it('keeps the ids of a text search that also pass the conditions and lie in the ranges, in either order', () => {
    // Every other record's id, and ids of no record of the pack on either side of its own.
    const ids = new IdSet([1, 99, ...ROWS.filter((_, i) => i % 2 === 0).map((r) => Number(r.id)), 10_000]);
    const ranges = [
      { from: T0, to: T0 + 20 * 60_000 },
      { from: T0 + 30 * 60_000, to: T0 + DAY },
    ];
    const where = [{ column: 'dlr_error_code', op: '=' as const, value: '001' }];
    // Found, of code 001 (every third record) and in a range.
    const expected = ROWS.map((_, i) => i).filter((i) => i % 2 === 0 && i % 3 === 0 && (i <= 20 || i >= 30));
    expect(positions(scanPack(PACK, { ranges, where, ids }, 'asc'))).toEqual(expected);
    expect(positions(scanPack(PACK, { ranges, where, ids }, 'desc'))).toEqual([...expected].reverse());
    expect(
      positions(scanPack(PACK, { ranges, where: [{ column: 'status', op: '=', value: 'EXPIRED' }], ids }, 'asc')),
    ).toEqual([]);
  });

  it('answers only conditions it can test: a number, its last digits or a reference go to SQL', () => {
    expect(
      packsServe([
        { column: 'status', op: '=', value: 'DELIVRD' },
        { column: 'latency_ms', op: '>=', value: 1 },
      ]),
    ).toBe(true);
    expect(packsServe([{ column: 'to_address', op: '=', value: '819012345678' }])).toBe(false);
    expect(packsServe([{ column: 'to_rev', op: 'prefix', value: '8765' }])).toBe(false);
    expect(packsServe([{ column: 'ref', op: '=', value: 'order-1' }])).toBe(false);
  });
});
