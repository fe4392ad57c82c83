/**
 * The summary on top of a reconciliation: rows by outcome; the records found (each once, however
 * many rows named it) by status, the delivery rate, parts and cost per currency; and, when the
 * upload said what to expect (a count, a cost, a cost per row), the variance against it in total
 * and per day of the rows' send times. Money is summed in 1e-8 units, exactly (the upstream's 8
 * decimals). Pure: the rows stream through it, a batch at a time.
 */
import { formatPriceUnits, priceUnits } from '../cdr/record-columns';
import { zoneDayIndex, zoneDayName } from '../time/zone-days';
import type { Zone } from '../time/zones';
import type { CostVariance, DayVariance, Outcome, ReconcileSummary, VarianceFigure } from './api';
import type { StoredMatch, StoredRow } from './job-row';

export interface Expected {
  count: number | null;
  cost: string | null;
  currency: string | null;
}

interface DayTally {
  rows: number;
  found: number;
  expectedUnits: number;
  costRows: number;
  actualUnits: Map<string, number>;
}

const percent = (difference: number, expected: number): number | null =>
  expected === 0 ? null : Math.round((difference / expected) * 1000) / 10;

export function figure(expected: number, actual: number): VarianceFigure {
  return { expected, actual, difference: actual - expected, percent: percent(actual - expected, expected) };
}

function costFigure(currency: string, expectedUnits: number, actualUnits: number): CostVariance {
  const difference = actualUnits - expectedUnits;
  return {
    currency,
    expected: formatPriceUnits(expectedUnits),
    actual: formatPriceUnits(actualUnits),
    difference: formatPriceUnits(difference),
    percent: percent(difference, expectedUnits),
  };
}

export class SummaryTally {
  private readonly outcomes: Record<Outcome | 'pending', number> = {
    matched: 0,
    not_found: 0,
    several: 0,
    invalid: 0,
    pending: 0,
  };
  private readonly seenValues = new Set<string>();
  private repeated = 0;
  private readonly records = new Map<string, StoredMatch>();
  private readonly days = new Map<number, DayTally>();
  private expectedUnits = 0;
  private costRows = 0;

  constructor(
    private readonly expected: Expected,
    private readonly tz: Zone,
  ) {}

  add(row: StoredRow): void {
    this.outcomes[row.outcome] += 1;
    if (row.value !== null) {
      if (this.seenValues.has(row.value)) this.repeated += 1;
      else this.seenValues.add(row.value);
    }
    const found = row.outcome === 'matched' || row.outcome === 'several' ? row.matches : [];
    for (const m of found) this.records.set(m.trx_id, m);
    const units = row.cost === null ? null : priceUnits(row.cost);
    if (units !== null) {
      this.expectedUnits += units;
      this.costRows += 1;
    }
    if (row.sentAt === null || row.outcome === 'invalid') return;
    const index = zoneDayIndex(row.sentAt, this.tz);
    const day = this.days.get(index) ?? { rows: 0, found: 0, expectedUnits: 0, costRows: 0, actualUnits: new Map() };
    day.rows += 1;
    if (found.length > 0) day.found += 1;
    if (units !== null) {
      day.expectedUnits += units;
      day.costRows += 1;
    }
    for (const m of found) {
      const p = priceUnits(m.price);
      if (p !== null) day.actualUnits.set(m.price_currency, (day.actualUnits.get(m.price_currency) ?? 0) + p);
    }
    this.days.set(index, day);
  }

  summary(): ReconcileSummary {
    const byStatus: Record<string, number> = {};
    const cost = new Map<string, { units: number; records: number }>();
    let parts = 0;
    for (const m of this.records.values()) {
      byStatus[m.delivery_status] = (byStatus[m.delivery_status] ?? 0) + 1;
      parts += m.how_many_message_parts ?? 0;
      const p = priceUnits(m.price);
      if (p === null) continue;
      const c = cost.get(m.price_currency) ?? { units: 0, records: 0 };
      c.units += p;
      c.records += 1;
      cost.set(m.price_currency, c);
    }
    const records = this.records.size;
    const delivered = byStatus.DELIVRD ?? 0;
    // The currency a cost is expected in: the one said, else the one most records were charged in.
    const currency =
      this.expected.currency ?? [...cost.entries()].sort((a, b) => b[1].records - a[1].records)[0]?.[0] ?? 'JPY';
    const expectedCostUnits =
      this.expected.cost !== null ? priceUnits(this.expected.cost) : this.costRows > 0 ? this.expectedUnits : null;
    const costRowsSeen = this.costRows > 0;
    const byDay: DayVariance[] = [...this.days.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([index, d]) => ({
        day: zoneDayName(index),
        count: figure(d.rows, d.found),
        cost: costRowsSeen ? costFigure(currency, d.expectedUnits, d.actualUnits.get(currency) ?? 0) : null,
      }));
    return {
      outcomes: {
        matched: this.outcomes.matched,
        not_found: this.outcomes.not_found,
        several: this.outcomes.several,
        invalid: this.outcomes.invalid,
      },
      pending: this.outcomes.pending,
      repeated: this.repeated,
      byStatus,
      records,
      delivered,
      deliveryRate: records === 0 ? null : delivered / records,
      parts,
      cost: [...cost.entries()]
        .sort((a, b) => a[0].localeCompare(b[0]))
        .map(([c, v]) => ({ currency: c, total: formatPriceUnits(v.units), records: v.records })),
      variance: {
        count: this.expected.count === null ? null : figure(this.expected.count, records),
        cost:
          expectedCostUnits === null ? null : costFigure(currency, expectedCostUnits, cost.get(currency)?.units ?? 0),
        byDay,
      },
    };
  }
}
