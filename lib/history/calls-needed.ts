/**
 * How many calls the days a copy still misses will take — for when it will be complete. A day
 * being copied knows its own pages once its first page has told the window's size; a day not
 * begun is taken to need what a typical day needed: the complete days' average, or, before any
 * day is complete, the size the upstream gave for a day being copied. Before any of that is
 * known the answer is null: a day's size is not guessed (one call a day, the old guess, made a
 * copy of weeks look a minute from done).
 */
import { isComplete, type DayProgress } from './sync-day-progress';
import { MAX_PAGE } from '../query/query';
import { pagesFor } from '../query/ranges';

export interface DayCalls {
  state: string;
  progress: DayProgress;
  /** Calls the day has taken so far. */
  calls: number;
}

/**
 * The pages a day's windows take at `pageSize` (null until a window's size is known): what a day
 * like it costs at the page size read with now, whatever size it was read at (the page size can
 * change: lib/history/sync-page-size.ts).
 */
function pagesAt(d: DayCalls, pageSize: number): number | null {
  const leaves = d.progress.windows.filter((w) => w.state !== 'split');
  if (leaves.length === 0 || leaves.some((w) => w.total === null)) return null;
  return leaves.reduce((n, w) => n + Math.max(1, pagesFor(w.total!, pageSize, MAX_PAGE)), 0);
}

/** Calls a typical day takes, from what is known; null when nothing is. */
export function typicalDayCalls(days: readonly DayCalls[], pageSize: number): number | null {
  const complete = days.filter((d) => d.state === 'complete');
  const sized = (complete.length > 0 ? complete : days).flatMap((d) => {
    const pages = pagesAt(d, pageSize);
    return pages === null ? [] : [pages];
  });
  if (sized.length === 0) return null;
  return Math.max(1, Math.round(sized.reduce((s, n) => s + n, 0) / sized.length));
}

/**
 * The calls the `missing` days still need (`stored`: the days the copy has a row for; `typical`:
 * typicalDayCalls of them), or null when that is not known yet.
 */
export function callsStillNeeded(
  missing: readonly string[],
  stored: ReadonlyMap<string, DayCalls>,
  typical: number | null,
): number | null {
  let calls = 0;
  for (const day of missing) {
    const d = stored.get(day);
    if (!d || d.progress.problem) {
      if (typical === null) return null;
      calls += typical;
      continue;
    }
    if (isComplete(d.progress)) continue;
    for (const w of d.progress.windows) {
      if (w.state !== 'pending') continue;
      if (w.pagesTotal !== null) calls += w.pagesTotal - w.pagesDone;
      else if (typical === null) return null;
      else calls += Math.max(1, typical - d.calls);
    }
  }
  return calls;
}
