/**
 * Folds the store's hourly cells (lib/store/insights-store.ts) into what Insights answers: totals,
 * days and hours in the query's zone stacked by status, breakdowns by network, sender and API key,
 * parts and prices per currency, the DLR error codes explained. One pass over the cells. Pure.
 */
import type { InsightsAnswer, InsightsDay, InsightsHour, Outcome, PriceTotal } from '../api/insights';
import { explainDlrError } from '../cdr/dlr-errors';
import { statusInfo } from '../cdr/status';
import { formatPriceUnits } from '../history/record-columns';
import type { Zone } from '../time/zones';
import { zoneDayIndex, zoneDayName, zoneHourName } from './zone-days';

/** The fields of a cell folding reads (the store's InsightsCell has them). */
export interface Cell {
  hour_ms: number;
  status: string;
  network_code: string;
  network_name: string;
  from_address: string;
  api_key: string;
  api_key_name: string;
  dlr_error_code: string;
  currency: string;
  records: number;
  parts_sum: number;
  price_units: number;
  priced: number;
}

export type Folded = Pick<
  InsightsAnswer,
  'total' | 'delivered' | 'rate' | 'byStatus' | 'byHour' | 'byNetwork' | 'bySender' | 'byApiKey' | 'parts' | 'price' | 'dlrErrors'
> & { byDay: Omit<InsightsDay, 'latencyMs'>[] };

type Kind = 'delivered' | 'failed' | 'other';

export function outcomeKind(status: string): Kind {
  if (status === 'DELIVRD') return 'delivered';
  return statusInfo(status)?.tone === 'failure' ? 'failed' : 'other';
}

const newOutcome = (): Outcome => ({ total: 0, delivered: 0, failed: 0, other: 0, rate: null });

function add(o: Outcome, kind: Kind, n: number): void {
  o.total += n;
  o[kind] += n;
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
        if (!Number.isSafeInteger(s.units)) throw new RangeError(`the sum of prices in ${currency} is too large to be exact`);
        return { currency, total: formatPriceUnits(s.units), records: s.records };
      });
  }
}

/** A DLR code that says something went wrong ("" is none yet, 0 is "no error"). */
function isErrorCode(code: string): boolean {
  return code.trim() !== '' && !(/^\d+$/.test(code) && Number(code) === 0);
}

function sortedByTotal<T extends Outcome>(map: Map<string, T>): T[] {
  return [...map.values()].map(finish).sort((a, b) => b.total - a.total);
}

/**
 * `countedDays` and `countedHours` (UTC hour starts) are listed even when they hold no record, so a
 * chart shows a quiet day or hour as zero rather than leaving it out.
 */
export function foldCells(cells: readonly Cell[], zone: Zone, countedDays: readonly string[], countedHours: readonly number[] = []): Folded {
  const all = newOutcome();
  const byStatus: Record<string, number> = {};
  const days = new Map<string, Omit<InsightsDay, 'latencyMs'> & { prices: Prices }>();
  for (const day of countedDays) days.set(day, { day, ...newOutcome(), byStatus: {}, parts: 0, price: [], prices: new Prices() });
  const hours = new Map<number, InsightsHour>();
  for (const h of countedHours) hours.set(h, { hour: zoneHourName(h, zone), ...newOutcome(), byStatus: {} });
  const networks = new Map<string, Outcome & { network_code: string; network_name: string }>();
  const senders = new Map<string, Outcome & { from_address: string }>();
  const keys = new Map<string, Outcome & { api_key: string; api_key_name: string }>();
  const errors = new Map<string, number>();
  const prices = new Prices();
  let parts = 0;

  for (const c of cells) {
    const kind = outcomeKind(c.status);
    const n = c.records;
    add(all, kind, n);
    byStatus[c.status] = (byStatus[c.status] ?? 0) + n;

    const dayName = zoneDayName(zoneDayIndex(c.hour_ms, zone));
    let day = days.get(dayName);
    if (!day) days.set(dayName, (day = { day: dayName, ...newOutcome(), byStatus: {}, parts: 0, price: [], prices: new Prices() }));
    add(day, kind, n);
    day.byStatus[c.status] = (day.byStatus[c.status] ?? 0) + n;
    day.parts += c.parts_sum;
    day.prices.add(c.currency, c.price_units, c.priced);

    let hour = hours.get(c.hour_ms);
    if (!hour) hours.set(c.hour_ms, (hour = { hour: zoneHourName(c.hour_ms, zone), ...newOutcome(), byStatus: {} }));
    add(hour, kind, n);
    hour.byStatus[c.status] = (hour.byStatus[c.status] ?? 0) + n;

    const networkKey = `${c.network_code}\u0000${c.network_name}`;
    let network = networks.get(networkKey);
    if (!network) networks.set(networkKey, (network = { network_code: c.network_code, network_name: c.network_name, ...newOutcome() }));
    add(network, kind, n);

    let sender = senders.get(c.from_address);
    if (!sender) senders.set(c.from_address, (sender = { from_address: c.from_address, ...newOutcome() }));
    add(sender, kind, n);

    const keyKey = `${c.api_key}\u0000${c.api_key_name}`;
    let key = keys.get(keyKey);
    if (!key) keys.set(keyKey, (key = { api_key: c.api_key, api_key_name: c.api_key_name, ...newOutcome() }));
    add(key, kind, n);

    if (isErrorCode(c.dlr_error_code)) errors.set(c.dlr_error_code, (errors.get(c.dlr_error_code) ?? 0) + n);
    parts += c.parts_sum;
    prices.add(c.currency, c.price_units, c.priced);
  }

  finish(all);
  return {
    total: all.total,
    delivered: all.delivered,
    rate: all.rate,
    byStatus,
    byDay: [...days.values()]
      .sort((a, b) => a.day.localeCompare(b.day))
      .map(({ prices: dayPrices, ...d }) => finish({ ...d, price: dayPrices.list() })),
    byHour: [...hours.entries()].sort(([a], [b]) => a - b).map(([, h]) => finish(h)),
    byNetwork: sortedByTotal(networks),
    bySender: sortedByTotal(senders),
    byApiKey: sortedByTotal(keys),
    parts,
    price: prices.list(),
    dlrErrors: [...errors.entries()]
      .map(([code, count]) => {
        const known = explainDlrError(code);
        return { code, reason: known?.meaning ?? 'A code this dashboard does not know.', final: known ? known.permanent : null, count };
      })
      .sort((a, b) => b.count - a.count || a.code.localeCompare(b.code)),
  };
}
