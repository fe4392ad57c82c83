/**
 * The sentence that keeps coverage in view: "complete for Nov 1–20 (54,210 messages); Nov 21–23
 * not settled, not included". Days are the query's zone days, runs of one state written as one
 * span. Pure: the API answers it and the page shows it, word for word.
 */
import type { CoveredDay, DayState } from './coverage';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const WHY: Record<Exclude<DayState, 'complete'>, string> = {
  unsettled: 'not settled',
  syncing: 'being copied',
  missing: 'not in the local history',
};

/** Consecutive days of one state, as [first, last] day names. */
export function runsOf(days: readonly Pick<CoveredDay, 'day' | 'state'>[], state: DayState): [string, string][] {
  const runs: [string, string][] = [];
  let open: [string, string] | null = null;
  for (const d of days) {
    if (d.state === state) {
      if (open) open[1] = d.day;
      else runs.push((open = [d.day, d.day]));
    } else open = null;
  }
  return runs;
}

/** `Nov 1`, `Nov 1–20`, `Oct 30–Nov 2` (and the year when the span crosses one: `Dec 30, 2026–Jan 2, 2027`). */
export function spanText([first, last]: [string, string]): string {
  const [y1, m1, d1] = first.split('-').map(Number) as [number, number, number];
  const [y2, m2, d2] = last.split('-').map(Number) as [number, number, number];
  const a = `${MONTHS[m1 - 1]} ${d1}`;
  if (first === last) return a;
  if (y1 !== y2) return `${a}, ${y1}–${MONTHS[m2 - 1]} ${d2}, ${y2}`;
  return m1 === m2 ? `${a}–${d2}` : `${a}–${MONTHS[m2 - 1]} ${d2}`;
}

function list(spans: string[]): string {
  return spans.length <= 1 ? (spans[0] ?? '') : `${spans.slice(0, -1).join(', ')} and ${spans[spans.length - 1]}`;
}

export function coverageNote(days: readonly Pick<CoveredDay, 'day' | 'state'>[], records: number): string {
  const parts: string[] = [];
  const complete = runsOf(days, 'complete');
  const count = `${records.toLocaleString('en-US')} ${records === 1 ? 'message' : 'messages'}`;
  parts.push(
    complete.length > 0 ? `complete for ${list(complete.map(spanText))} (${count})` : 'no complete day in this range',
  );
  for (const state of ['missing', 'syncing', 'unsettled'] as const) {
    const runs = runsOf(days, state);
    if (runs.length > 0) parts.push(`${list(runs.map(spanText))} ${WHY[state]}, not included`);
  }
  return parts.join('; ');
}
