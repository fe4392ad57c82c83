/**
 * Turns the store's sums (lib/insights/insights-store.ts) into what Insights answers: totals, days and
 * hours in the query's zone stacked by status, outcomes by network, sender and API key, parts and
 * prices per currency, the DLR error codes explained. Pure.
 */
import type { InsightsAnswer, InsightsDay, InsightsHour, Outcome, PriceTotal } from './api';
import { explainDlrError } from '../cdr/dlr-errors';
import { statusInfo } from '../cdr/status';
import { formatPriceUnits } from '../cdr/record-columns';
import type { InsightsSums } from './insights-store';
import type { Zone } from '../time/zones';
import { zoneDayName, zoneHourName } from '../time/zone-days';

export type Folded = Pick<
  InsightsAnswer,
  | 'total'
  | 'delivered'
  | 'rate'
  | 'byStatus'
  | 'byHour'
  | 'byNetwork'
  | 'bySender'
  | 'byApiKey'
  | 'parts'
  | 'price'
  | 'dlrErrors'
> & { byDay: Omit<InsightsDay, 'latencyMs'>[] };

type Kind = 'delivered' | 'failed' | 'other';

export function outcomeKind(status: string): Kind {
  if (status === 'DELIVRD') return 'delivered';
  return statusInfo(status)?.tone === 'failure' ? 'failed' : 'other';
}

const newOutcome = (): Outcome => ({ total: 0, delivered: 0, failed: 0, other: 0, rate: null });

function add(o: Outcome, status: string, n: number): void {
  o.total += n;
  o[outcomeKind(status)] += n;
}

function finish<T extends Outcome>(o: T): T {
  o.rate = o.total === 0 ? null : o.delivered / o.total;
  return o;
}

class Prices {
  private readonly sums = new Map<string, { units: number; records: number }>();
  add(currency: string, units: number, records: number): void {
    if (records === 0) return;
    const s = this.sums.get(currency) ?? { units: 0, records: 0 };
    s.units += units;
    s.records += records;
    this.sums.set(currency, s);
  }
  list(): PriceTotal[] {
    return [...this.sums.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([currency, s]) => {
        if (!Number.isSafeInteger(s.units))
          throw new RangeError(`the sum of prices in ${currency} is too large to be exact`);
        return { currency, total: formatPriceUnits(s.units), records: s.records };
      });
  }
}

/** A DLR code that says something went wrong ("" is none yet, 0 is "no error"). */
export function isErrorCode(code: string): boolean {
  return code.trim() !== '' && !(/^\d+$/.test(code) && Number(code) === 0);
}

/** Rows of one key and several statuses as one outcome per key, the largest first. */
function outcomes<R extends { status: string; records: number }, T extends object>(
  rows: readonly R[],
  keyOf: (r: R) => string,
  base: (r: R) => T,
): (T & Outcome)[] {
  const map = new Map<string, T & Outcome>();
  for (const r of rows) {
    const key = keyOf(r);
    let o = map.get(key);
    if (!o) map.set(key, (o = { ...base(r), ...newOutcome() }));
    add(o, r.status, r.records);
  }
  return [...map.values()].map(finish).sort((a, b) => b.total - a.total);
}

/**
 * `countedDays` (zone day indexes) and `countedHours` (UTC hour starts) are listed even when they
 * hold no record, so a chart shows a quiet day or hour as zero rather than leaving it out.
 */
export function foldSums(
  sums: Omit<InsightsSums, 'source'>,
  hourly: readonly { hour_ms: number; status: string; records: number }[],
  zone: Zone,
  countedDays: readonly number[],
  countedHours: readonly number[],
): Folded {
  const all = newOutcome();
  const byStatus: Record<string, number> = {};
  const prices = new Prices();
  let parts = 0;
  const days = new Map<number, Omit<InsightsDay, 'latencyMs'> & { prices: Prices }>();
  const dayOf = (index: number) => {
    let d = days.get(index);
    if (!d)
      days.set(
        index,
        (d = { day: zoneDayName(index), ...newOutcome(), byStatus: {}, parts: 0, price: [], prices: new Prices() }),
      );
    return d;
  };
  for (const index of countedDays) dayOf(index);
  for (const r of sums.byDay) {
    add(all, r.status, r.records);
    byStatus[r.status] = (byStatus[r.status] ?? 0) + r.records;
    parts += r.parts_sum;
    prices.add(r.currency, r.price_units, r.priced);
    const d = dayOf(r.day);
    add(d, r.status, r.records);
    d.byStatus[r.status] = (d.byStatus[r.status] ?? 0) + r.records;
    d.parts += r.parts_sum;
    d.prices.add(r.currency, r.price_units, r.priced);
  }

  const hours = new Map<number, InsightsHour>();
  const hourOf = (ms: number) => {
    let h = hours.get(ms);
    if (!h) hours.set(ms, (h = { hour: zoneHourName(ms, zone), ...newOutcome(), byStatus: {} }));
    return h;
  };
  for (const ms of countedHours) hourOf(ms);
  for (const r of hourly) {
    const h = hourOf(r.hour_ms);
    add(h, r.status, r.records);
    h.byStatus[r.status] = (h.byStatus[r.status] ?? 0) + r.records;
  }

  finish(all);
  return {
    total: all.total,
    delivered: all.delivered,
    rate: all.rate,
    byStatus,
    byDay: [...days.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, { prices: p, ...d }]) => finish({ ...d, price: p.list() })),
    byHour: [...hours.entries()].sort(([a], [b]) => a - b).map(([, h]) => finish(h)),
    byNetwork: outcomes(
      sums.byNetwork,
      (r) => `${r.network_code}\u0000${r.network_name}`,
      (r) => ({ network_code: r.network_code, network_name: r.network_name }),
    ),
    bySender: outcomes(
      sums.bySender,
      (r) => r.from_address,
      (r) => ({ from_address: r.from_address }),
    ),
    byApiKey: outcomes(
      sums.byApiKey,
      (r) => `${r.api_key}\u0000${r.api_key_name}`,
      (r) => ({ api_key: r.api_key, api_key_name: r.api_key_name }),
    ),
    parts,
    price: prices.list(),
    dlrErrors: sums.byDlr
      .filter((r) => isErrorCode(r.dlr_error_code))
      .map((r) => {
        const known = explainDlrError(r.dlr_error_code);
        return {
          code: r.dlr_error_code,
          reason: known?.meaning ?? 'A code this dashboard does not know.',
          final: known ? known.permanent : null,
          count: r.records,
        };
      })
      .sort((a, b) => b.count - a.count || a.code.localeCompare(b.code)),
  };
}
