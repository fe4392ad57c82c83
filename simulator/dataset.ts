/**
 * The simulated history as the HTTP handlers (and tests) read it: range search by binary search on
 * the sorted date_received column, filters as one mask comparison on the packed attributes, CDR
 * objects built only for the rows returned. Row order is the upstream's order — date_received, then
 * trx_id (trx-ids.ts makes ties agree) — so asc walks rows forwards and desc backwards.
 */
import { SENDERS, SENDING_KEYS, ENTERPRISES } from './accounts';
import { KNOWN_NETWORKS } from '../lib/cdr/networks';
import type { FilterParam } from '../lib/query/filters';
import type { Zone } from '../lib/time/zones';
import { buildCdr, statusAt, type SimCdr } from './cdr';
import { ATTR_MASK, ATTR_SHIFT, STATUS_INDEX, type Generated } from './generate';
import { REF_PREFIXES } from './templates';
import { jstDate } from './traffic';
import { TrxIds } from './trx-ids';

/** The seed's record filters (enterprise-id is scoping, handled apart). Values match exactly. */
export type RecordFilters = Partial<Record<Exclude<FilterParam, 'enterprise-id'>, string>>;

export interface DatasetQuery {
  /** Range on date_received, ms, inclusive at both ends. */
  from: number;
  to: number;
  /** Records received after `now` do not exist yet; statuses are computed at `now`. Default: the clock. */
  now?: number;
  /** One enterprise, or null/undefined for all of them (the support key). */
  enterpriseId?: string | null;
  filters?: RecordFilters;
  order?: 'asc' | 'desc';
  offset?: number;
  limit?: number;
}

export interface DatasetPage {
  total: number;
  /** Row indices of the requested slice, in the requested order. */
  indices: number[];
}

const NONE = -1; // no filter on this column
const NO_MATCH = -2; // the value exists nowhere: the answer is empty

export class Dataset {
  readonly generated: Generated;
  private readonly trxIds: TrxIds;
  private readonly clock: () => number;
  private readonly includeBodies: boolean;

  constructor(generated: Generated, clock: () => number, includeBodies = true) {
    this.generated = generated;
    this.trxIds = new TrxIds(generated);
    this.clock = clock;
    this.includeBodies = includeBodies;
  }

  /** Rows generated, including those whose date_received is still in the future. */
  get size(): number {
    return this.generated.columns.n;
  }

  get generationMs(): number {
    return this.generated.generationMs;
  }

  receivedAt(i: number): number {
    return this.generated.columns.received[i]!;
  }

  enterpriseIdAt(i: number): string {
    return ENTERPRISES[this.generated.columns.enterprise[i]!]!.id;
  }

  trxIdAt(i: number): string {
    return this.trxIds.idAt(i);
  }

  /** Row i as the upstream would send it at `now` in zone `tz`. */
  recordAt(i: number, tz: Zone = 'UTC', now: number = this.clock()): SimCdr {
    return buildCdr(this.generated, i, { tz, now, includeBodies: this.includeBodies, trxId: this.trxIdAt(i) });
  }

  /** Row index of a trx_id (whether or not it is visible yet), or undefined. */
  findByTrxId(id: string): number | undefined {
    return this.trxIds.rowOf(id);
  }

  /** Received at or before `now`: records in the future do not exist yet. */
  isVisible(i: number, now: number = this.clock()): boolean {
    return this.receivedAt(i) <= now;
  }

  visibleCount(now: number = this.clock()): number {
    return this.upperBound(now);
  }

  /** First row with date_received >= ms. */
  lowerBound(ms: number): number {
    const r = this.generated.columns.received;
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (r[mid]! < ms) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** First row with date_received > ms. */
  upperBound(ms: number): number {
    const r = this.generated.columns.received;
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (r[mid]! <= ms) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  query(q: DatasetQuery): DatasetPage {
    const now = q.now ?? this.clock();
    const offset = q.offset ?? 0;
    const limit = q.limit ?? 25;
    const lo = this.lowerBound(q.from);
    const hi = this.upperBound(Math.min(q.to, now));
    const t = this.compileFilters(q.enterpriseId ?? null, q.filters ?? {});
    const indices: number[] = [];
    if (hi <= lo || t === null) return { total: 0, indices };
    const desc = q.order === 'desc';
    const { recipient, refKind, refNum, refYear, status } = t;

    if (t.mask === 0 && status === NONE && recipient === NONE && refKind === NONE) {
      const total = hi - lo;
      for (let k = offset; k < Math.min(total, offset + limit); k++) indices.push(desc ? hi - 1 - k : lo + k);
      return { total, indices };
    }

    const c = this.generated.columns;
    const attrs = c.attrs;
    // Rows received before settledEnd have reached their final state by `now`: their status is the
    // one packed in attrs. Later rows (the last day or two) may still be in transit: computed per row.
    const settledEnd = Math.max(lo, Math.min(hi, this.upperBound(now - this.generated.settleMs)));
    const fullMask = t.mask | (status === NONE ? 0 : ATTR_MASK.finalStatus);
    const fullWant = t.want | (status === NONE ? 0 : status << ATTR_SHIFT.finalStatus);
    const simple = recipient === NONE && refKind === NONE;
    const end = offset + limit;

    const matches = (i: number, settled: boolean): boolean => {
      const a = attrs[i]!;
      if (settled) {
        if ((a & fullMask) !== fullWant) return false;
      } else if ((a & t.mask) !== t.want || (status !== NONE && statusAt(c, i, now) !== status)) return false;
      if (recipient !== NONE && c.recipient[i] !== recipient) return false;
      if (
        refKind !== NONE &&
        (c.refKind[i] !== refKind || c.refNum[i] !== refNum || jstDate(c.received[i]!).year !== refYear)
      )
        return false;
      return true;
    };
    const scanGeneral = (from: number, to: number, settled: boolean, total: number): number => {
      const step = desc ? -1 : 1;
      for (let i = desc ? to - 1 : from, n = to - from; n > 0; n--, i += step) {
        if (!matches(i, settled)) continue;
        if (total >= offset && total < end) indices.push(i);
        total++;
      }
      return total;
    };
    const scanSettled = (from: number, to: number, total: number) =>
      simple
        ? scanAttrs(
            attrs,
            desc ? to - 1 : from,
            to - from,
            desc ? -1 : 1,
            fullMask,
            fullWant,
            total,
            offset,
            end,
            indices,
          )
        : scanGeneral(from, to, true, total);

    let total = 0;
    if (desc) {
      total = scanGeneral(settledEnd, hi, false, total);
      total = scanSettled(lo, settledEnd, total);
    } else {
      total = scanSettled(lo, settledEnd, total);
      total = scanGeneral(settledEnd, hi, false, total);
    }
    return { total, indices };
  }

  /**
   * Turns filter values into the integers the columns hold. null: some value exists nowhere, so
   * nothing can match.
   */
  private compileFilters(enterpriseId: string | null, f: RecordFilters) {
    const lookup = (value: string | undefined, find: () => number) => {
      if (value === undefined || value === '') return NONE;
      const idx = find();
      return idx < 0 ? NO_MATCH : idx;
    };
    const enterprise =
      enterpriseId === null ? NONE : lookup(enterpriseId, () => ENTERPRISES.findIndex((e) => e.id === enterpriseId));
    const key = lookup(f['api-key'], () => SENDING_KEYS.findIndex((k) => k.apiKey === f['api-key']));
    const network = lookup(f.network, () => KNOWN_NETWORKS.findIndex((n) => n.code === f.network));
    const sender = lookup(f.oa, () => SENDERS.findIndex((s) => s.sender === f.oa));
    const status = lookup(f.status, () =>
      f.status! in STATUS_INDEX ? STATUS_INDEX[f.status as keyof typeof STATUS_INDEX] : -1,
    );
    // Numbers are stored as 81XXXXXXXXXX; exact match means "+81…" or "090…" finds nothing.
    const recipient = lookup(f.da, () =>
      /^[1-9]\d{5,14}$/.test(f.da!) ? (this.generated.pool.byNumber.get(Number(f.da)) ?? -1) : -1,
    );
    let refKind = NONE;
    let refNum = 0;
    let refYear = 0;
    const ref = f['client-reference'];
    if (ref !== undefined && ref !== '') {
      const m = /^([A-Z]{3})-(\d{4})-(\d{7})$/.exec(ref);
      const kind = m ? REF_PREFIXES.indexOf(m[1]!) + 1 : 0;
      if (!m || kind === 0) refKind = NO_MATCH;
      else {
        refKind = kind;
        refYear = Number(m[2]);
        refNum = Number(m[3]);
      }
    }
    if ([enterprise, key, network, sender, status, recipient, refKind].includes(NO_MATCH)) return null;
    let mask = 0;
    let want = 0;
    const add = (value: number, field: keyof typeof ATTR_SHIFT) => {
      if (value === NONE) return;
      mask |= ATTR_MASK[field];
      want |= value << ATTR_SHIFT[field];
    };
    add(enterprise, 'enterprise');
    add(key, 'sendingKey');
    add(network, 'network');
    add(sender, 'sender');
    return { mask, want, status, recipient, refKind, refNum, refYear };
  }
}

/**
 * The hot loop: rows start, start+step, … (count of them) whose attrs match. Collects the matches
 * numbered [offset, end) into out, then only counts, branch-free. Returns the running total.
 */
function scanAttrs(
  attrs: Uint32Array,
  start: number,
  count: number,
  step: number,
  mask: number,
  want: number,
  total: number,
  offset: number,
  end: number,
  out: number[],
): number {
  let i = start;
  for (; count > 0 && total < end; count--, i += step) {
    if ((attrs[i]! & mask) === want) {
      if (total >= offset) out.push(i);
      total++;
    }
  }
  for (; count > 0; count--, i += step) total += (attrs[i]! & mask) === want ? 1 : 0;
  return total;
}
