/**
 * How many calls the days a copy still misses will take — for when it will be complete. A day
 * being copied knows its own pages once its first page has told the window's size; a day not
 * begun is taken to need what a typical day needed: the complete days' average, or, before any
 * day is complete, the size the upstream gave for a day being copied. Before any of that is
 * known the answer is null: a day's size is not guessed (one call a day, the old guess, made a
 * copy of weeks look a minute from done).
 */
import { isComplete, type DayProgress } from './sync-day-progress';

export interface DayCalls {
  state: string;
  progress: DayProgress;
  /** Calls the day has taken so far. */
  calls: number;
}

/** Calls a typical day takes, from what is known; null when nothing is. */
export function typicalDayCalls(days: readonly DayCalls[], pageSize: number): number | null {
  const complete = days.filter((d) => d.state === 'complete');
  const sized =
    complete.length > 0
      ? complete.map((d) => d.calls)
      : days.flatMap((d) =>
          d.progress.windows[0]?.total != null ? [Math.ceil(d.progress.windows[0].total / pageSize)] : [],
        );
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
