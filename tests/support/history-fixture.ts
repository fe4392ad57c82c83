/**
 * Fills a scope's local history straight from the simulator's dataset — the records the sync would
 * have copied, each day marked complete — so benchmarks and tests over a million records need not
 * wait for a sync through the upstream's limits. Only for benchmarks and tests: the product copies
 * through the governor (lib/history/sync-step.ts).
 */
import type { Cdr } from '../../lib/cdr/schema';
import { startDay, type DayProgress } from '../../lib/history/sync-day-progress';
import { DAY_MS } from '../../lib/time/units';
import { dayOf, startOf } from '../../lib/history/days';
import { historyRow } from '../../lib/cdr/record-columns';
import type { HistoryRecordRow, HistoryStore } from '../../lib/history/store/history-store';
import type { Dataset } from '../../simulator/dataset';

export interface FixtureOptions {
  scope: string;
  /** The enterprise the scope sees (null: all, as the support key). */
  enterpriseId: string | null;
  /** UTC days, both included. */
  fromDay: string;
  toDay: string;
  /** Called after each day with how many records so far. */
  progress?: (day: string, records: number) => void;
}

const BATCH = 2_000;

/** A day's progress as a finished sync leaves it (every window read, the count as reported). */
function completeProgress(day: string, total: number): DayProgress {
  const p = startDay(day);
  const w = p.windows[0]!;
  Object.assign(w, {
    state: 'done',
    total,
    pagesDone: Math.max(1, Math.ceil(total / 100)),
    pagesTotal: Math.max(1, Math.ceil(total / 100)),
    received: total,
  });
  return p;
}

export async function loadHistoryFixture(
  history: HistoryStore,
  dataset: Dataset,
  opts: FixtureOptions,
): Promise<number> {
  let records = 0;
  for (let t = startOf(opts.fromDay); t <= startOf(opts.toDay); t += DAY_MS) {
    const day = dayOf(t);
    // As the sync reads it: the whole day, and the next day's first instant.
    const all = dataset.query({
      from: t,
      to: t + DAY_MS,
      enterpriseId: opts.enterpriseId,
      order: 'asc',
      offset: 0,
      limit: 10_000_000,
    });
    const row = {
      day,
      state: 'syncing' as 'syncing' | 'complete',
      progress: completeProgress(day, all.total),
      records: 0,
      calls: Math.max(1, Math.ceil(all.total / 100)),
      updatedAt: Date.now(),
      completedAt: null as number | null,
    };
    for (let i = 0; i < all.indices.length; i += BATCH) {
      const inDay: HistoryRecordRow[] = [];
      const beyond: HistoryRecordRow[] = [];
      for (const index of all.indices.slice(i, i + BATCH)) {
        const r = historyRow(dataset.recordAt(index, 'UTC') as unknown as Cdr);
        if (!r) continue;
        (r.received_ms < t + DAY_MS ? inDay : beyond).push(r);
      }
      const last = i + BATCH >= all.indices.length;
      if (last) Object.assign(row, { state: 'complete', completedAt: Date.now() });
      await history.commitDayPage(opts.scope, row, inDay, beyond);
    }
    if (all.indices.length === 0)
      await history.commitDayPage(opts.scope, { ...row, state: 'complete', completedAt: Date.now() }, [], []);
    records += row.records;
    opts.progress?.(day, records);
  }
  return records;
}
