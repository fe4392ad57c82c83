/**
 * Insights' read of the records, from day packs (lib/history/store/day-pack.ts) instead of SQL: cells (per
 * day of the zone and combination of the breakdowns' values, with their sums), the counts per UTC
 * hour and status, and each day's latencies, from a scan of typed arrays. A free text found 400,000 times in a month, or a
 * latency bound, costs SQL a row lookup per record and a sort into groups (about a second); the
 * packs answer in tens of milliseconds. Pure.
 */
import { DAY_MS, HOUR_MS } from '../time/units';
import { zoneOffsetMs, type Zone } from '../time/zones';
import { scanPack, type DayPack, type PackFilter, type PackTextColumn } from '../history/server';

/** The values the breakdowns read (the others — parts, enterprise, delivery method — only filter). */
export const CELL_VALUES = [
  'status',
  'network_code',
  'network_name',
  'from_address',
  'api_key',
  'api_key_name',
  'dlr_error_code',
  'currency',
] as const satisfies readonly PackTextColumn[];

/** A day's (in the zone) records of one combination of the breakdowns' values, with their sums. */
export type Cell = Record<(typeof CELL_VALUES)[number], string> & {
  day: number;
  records: number;
  parts_sum: number;
  price_units: number;
  priced: number;
};

/** What Insights reads of the records: the cells, records per UTC hour and status, each day's latencies (day: index in the zone, in pieces). */
export interface PackRead {
  cells: Cell[];
  hourly: { hour_ms: number; status: string; records: number }[];
  latencies: Map<number, Float64Array[]>;
}

/** Each record's combination of the cell values, numbered, and a record of each combination. */
interface Combinations {
  of: Uint32Array;
  example: number[];
}

/** Worked out once per pack (a decoded pack is kept and read again: lib/history/store/day-pack-store.ts). */
const combinationsOfPack = new WeakMap<DayPack, Combinations>();

function combinationsOf(pack: DayPack): Combinations {
  const known = combinationsOfPack.get(pack);
  if (known) return known;
  const codes = CELL_VALUES.map((v) => pack.codes[v]);
  const sizes = CELL_VALUES.map((v) => Math.max(1, pack.dictionaries[v].length));
  // The codes as one number (exact while their product fits in 2^52, as any real day does), else as text.
  const numeric = sizes.reduce((n, size) => n * size, 1) < 2 ** 52;
  const numbers = new Map<number | string, number>();
  const combinations: Combinations = { of: new Uint32Array(pack.size), example: [] };
  for (let i = 0; i < pack.size; i++) {
    let key: number | string = 0;
    if (numeric) for (let v = 0; v < codes.length; v++) key = key * sizes[v]! + codes[v]![i]!;
    else key = codes.map((c) => c[i]).join(' ');
    let n = numbers.get(key);
    if (n === undefined) {
      numbers.set(key, (n = numbers.size));
      combinations.example.push(i);
    }
    combinations.of[i] = n;
  }
  combinationsOfPack.set(pack, combinations);
  return combinations;
}

/**
 * The cells, hourly counts and latencies of the packs' records that `filter` keeps: per pack, sums
 * in typed arrays indexed by (day, combination), no object per record.
 */
export function cellsOfPacks(packs: readonly DayPack[], filter: PackFilter, zone: Zone): PackRead {
  const offset = zoneOffsetMs(zone);
  // Read once: an imported constant is a getter call once the module is compiled to CommonJS,
  // which the loop below would make for every record.
  const dayMs = DAY_MS;
  const hourMs = HOUR_MS;
  const out: PackRead = { cells: [], hourly: [], latencies: new Map() };
  for (const pack of packs) {
    const kept = scanPack(pack, filter, 'asc');
    if (kept.length === 0) continue;
    const received = pack.numbers.received_ms;
    const { parts, price_units: price, latency_ms: latency } = pack.numbers;
    const combinations = combinationsOf(pack);
    const n = combinations.example.length;
    // A UTC day touches two days of a zone at most: the first one's index, and 0 or 1 after it.
    const firstDay = Math.floor((received[kept[0]!]! + offset) / DAY_MS);
    const records = new Float64Array(2 * n);
    const partsSum = new Float64Array(2 * n);
    const priceSum = new Float64Array(2 * n);
    const priced = new Float64Array(2 * n);
    const latencies = [new Float64Array(kept.length), new Float64Array(kept.length)] as const;
    const latencyCount = [0, 0];
    // Records per hour of the UTC day and status.
    const statusCodes = pack.codes.status;
    const statuses = Math.max(1, pack.dictionaries.status.length);
    const perHour = new Uint32Array(24 * statuses);
    const dayStart = Math.floor(received[kept[0]!]! / DAY_MS) * DAY_MS;
    for (let j = 0; j < kept.length; j++) {
      const i = kept[j]!;
      const d = Math.floor((received[i]! + offset) / dayMs) - firstDay;
      const key = d * n + combinations.of[i]!;
      records[key]! += 1;
      const p = parts[i]!;
      if (!Number.isNaN(p)) partsSum[key]! += p;
      const units = price[i]!;
      if (!Number.isNaN(units)) {
        priceSum[key]! += units;
        priced[key]! += 1;
      }
      const ms = latency[i]!;
      if (!Number.isNaN(ms)) latencies[d]![latencyCount[d]!++] = ms;
      perHour[Math.floor((received[i]! - dayStart) / hourMs) * statuses + statusCodes[i]!]! += 1;
    }
    for (let key = 0; key < 2 * n; key++) {
      if (records[key] === 0) continue;
      const example = combinations.example[key % n]!;
      const text = (v: number) => pack.dictionaries[CELL_VALUES[v]!][pack.codes[CELL_VALUES[v]!][example]!]!;
      out.cells.push({
        day: firstDay + Math.floor(key / n),
        status: text(0),
        network_code: text(1),
        network_name: text(2),
        from_address: text(3),
        api_key: text(4),
        api_key_name: text(5),
        dlr_error_code: text(6),
        currency: text(7),
        records: records[key]!,
        parts_sum: partsSum[key]!,
        price_units: priceSum[key]!,
        priced: priced[key]!,
      });
    }
    for (const d of [0, 1]) {
      if (latencyCount[d] === 0) continue;
      const day = firstDay + d;
      (out.latencies.get(day) ?? out.latencies.set(day, []).get(day)!).push(latencies[d]!.subarray(0, latencyCount[d]));
    }
    for (let h = 0; h < perHour.length; h++) {
      if (perHour[h]! > 0)
        out.hourly.push({
          hour_ms: dayStart + Math.floor(h / statuses) * HOUR_MS,
          status: pack.dictionaries.status[h % statuses]!,
          records: perHour[h]!,
        });
    }
  }
  return out;
}
