/**
 * Which parts of a search's ranges the day packs answer (lib/history/store/day-pack.ts) and which SQL
 * does: the ranges cut at UTC midnights, each part going to its day's pack when the day has one.
 * The parts SQL answers are told apart by where they lie, because a page in time order can be
 * put together from pieces only if each lies wholly before or after the others: `before` the
 * first packed part, `after` the last, or `between` packed parts. (A search that ends at midnight
 * after complete days reaches the next day's first instant, which its sync kept: lib/history/
 * coverage.ts. That day is rarely complete yet, so `after` is common, and `between` is rare.) Pure.
 */
import { joinRanges, type TimeRange } from '../../query/ranges';
import { DAY_MS } from '../../time/units';
import { utcDayOf } from '../../time/zone-days';

export interface PackPlan {
  packed: TimeRange[];
  before: TimeRange[];
  between: TimeRange[];
  after: TimeRange[];
}

/** The UTC days (YYYY-MM-DD, ascending, once each) that the ranges touch. */
export function utcDaysOf(ranges: readonly TimeRange[]): string[] {
  const days = new Set<string>();
  for (const r of joinRanges(ranges))
    for (let t = Math.floor(r.from / DAY_MS) * DAY_MS; t <= r.to; t += DAY_MS) days.add(utcDayOf(t));
  return [...days];
}

/** `ranges` cut by the days that have packs (`packed`); every part joined with its neighbours. */
export function packPlan(ranges: readonly TimeRange[], packed: ReadonlySet<string>): PackPlan {
  const parts: { range: TimeRange; packed: boolean }[] = [];
  for (const r of joinRanges(ranges)) {
    for (let start = Math.floor(r.from / DAY_MS) * DAY_MS; start <= r.to; start += DAY_MS) {
      parts.push({
        range: { from: Math.max(r.from, start), to: Math.min(r.to, start + DAY_MS - 1) },
        packed: packed.has(utcDayOf(start)),
      });
    }
  }
  const first = parts.findIndex((p) => p.packed);
  const last = parts.findLastIndex((p) => p.packed);
  const plan: PackPlan = { packed: [], before: [], between: [], after: [] };
  parts.forEach((p, i) => {
    const into = p.packed ? plan.packed : first < 0 || i < first ? plan.before : i > last ? plan.after : plan.between;
    into.push(p.range);
  });
  return {
    packed: joinRanges(plan.packed),
    before: joinRanges(plan.before),
    between: joinRanges(plan.between),
    after: joinRanges(plan.after),
  };
}
