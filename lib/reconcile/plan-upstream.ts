/**
 * The rows the local history could not answer, grouped into the fewest upstream calls. Pure.
 *
 * The parts of the rows' spans that must go upstream are joined into windows (31 days at most, as
 * the upstream allows). For each window there are two ways: read it whole at the upstream's page
 * size (every row in it answered by the same pages), or ask for each of its values alone (a
 * filtered query per reference or number, a lookup per trx_id: one call each). The cheaper wins:
 * a campaign's 10,000 trx_ids in a fortnight of 14,000 records is 140 pages, not 10,000 lookups;
 * five numbers in the same fortnight are five calls, not 140.
 *
 * A window's size comes from the page cache or the local history (./window-sizes.ts); when nothing
 * knows it, a window with two values or more is read whole from its first page, which says the
 * size, and the runner takes the other way then if that is cheaper (cheaperToAskEach): one call
 * more at most.
 */
import { MAX_PAGE, SEARCH_MAX_RANGE_MS } from '../query/query';
import { joinRanges, pagesFor, reachableRecords, splitForDepth, splitRange, type TimeRange } from '../query/ranges';
import { HOUR_MS } from '../time/units';
import type { PlannedWindow, ReconcileKind, ReconcilePlan } from './api';
import type { StoredTask } from './job-row';

/** Windows closer than this are read as one: the records between cost less than a second window's first call. */
const JOIN_GAP_MS = HOUR_MS;

export interface PendingRow {
  value: string;
  /** The parts of its span only the upstream can answer (whole seconds, inclusive). */
  pieces: readonly TimeRange[];
}

export interface WindowSize {
  records: number | null;
  known: 'exact' | 'estimate' | 'unknown';
  /** Pages of the window the dashboard's cache holds fresh (free). */
  cachedPages: number;
}

/** The windows the rows' upstream pieces make: joined when close, cut at 31 days. */
export function windowsOf(rows: readonly PendingRow[]): TimeRange[] {
  const joined: TimeRange[] = [];
  for (const r of joinRanges(rows.flatMap((row) => row.pieces))) {
    const last = joined[joined.length - 1];
    if (last && r.from - last.to <= JOIN_GAP_MS) last.to = Math.max(last.to, r.to);
    else joined.push({ ...r });
  }
  return joined.flatMap((r) => (r.to > r.from ? splitRange(r.from, r.to, SEARCH_MAX_RANGE_MS) : [r]));
}

/** Calls to read a window whole, from its size: its pages less those cached, and a first page per narrower window when it is deeper than the upstream reaches. */
export function wholeCalls(size: WindowSize, window: TimeRange, pageSize: number): number | null {
  if (size.records === null) return null;
  const reach = reachableRecords(pageSize);
  if (size.records <= reach) return Math.max(0, pagesFor(size.records, pageSize, MAX_PAGE) - size.cachedPages);
  const parts = splitForDepth(window, size.records, reach)?.length ?? 1;
  return Math.ceil(size.records / pageSize) + parts;
}

/** Whether asking each value alone (`values` calls) is cheaper than the `pages` a window still needs read whole. */
export function cheaperToAskEach(pages: number, values: number): boolean {
  return values < pages;
}

export interface UpstreamPlan {
  tasks: StoredTask[];
  windows: (Omit<PlannedWindow, 'dateFrom' | 'dateTo'> & TimeRange)[];
  calls: number;
  callsAtMost: number;
  callsKnown: ReconcilePlan['callsKnown'];
}

const overlaps = (a: TimeRange, b: TimeRange) => a.from <= b.to && a.to >= b.from;

/** The first of `windows` (in time order) that ends at or after `at`. */
function firstEndingAfter(windows: readonly TimeRange[], at: number): number {
  let lo = 0;
  let hi = windows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (windows[mid]!.to < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The rows each window holds a piece of (a list of 100,000 rows in a year of windows: no rows × windows scan). */
function rowsByWindow(rows: readonly PendingRow[], windows: readonly TimeRange[]): PendingRow[][] {
  const members: PendingRow[][] = windows.map(() => []);
  for (const r of rows) {
    let last = -1;
    for (const p of r.pieces) {
      for (let i = Math.max(last + 1, firstEndingAfter(windows, p.from)); i < windows.length; i++) {
        if (windows[i]!.from > p.to) break;
        members[i]!.push(r);
        last = i;
      }
    }
  }
  return members;
}

/** The tasks that answer `rows`, given each window's size (`sizes[i]` of `windows[i]`). */
export function planUpstream(
  kind: ReconcileKind,
  rows: readonly PendingRow[],
  windows: readonly TimeRange[],
  sizes: readonly WindowSize[],
  pageSize: number,
): UpstreamPlan {
  const plan: UpstreamPlan = { tasks: [], windows: [], calls: 0, callsAtMost: 0, callsKnown: 'exact' };
  /** Per value, the parts of its rows' pieces each window asks alone for (filters), or that it is looked up. */
  const filters = new Map<string, TimeRange[]>();
  const lookups = new Set<string>();
  let nextId = 1;
  const members = rowsByWindow(rows, windows);
  windows.forEach((w, i) => {
    const size = sizes[i]!;
    const inWindow = members[i]!;
    const values = new Set(inWindow.map((r) => r.value));
    const whole = wholeCalls(size, w, pageSize);
    const askEach = whole === null ? values.size < 2 : cheaperToAskEach(whole, values.size);
    const entry = { from: w.from, to: w.to, rows: inWindow.length, records: size.records, recordsKnown: size.known };
    if (!askEach) {
      plan.tasks.push({
        id: nextId++,
        kind: 'window',
        param: null,
        value: null,
        from: w.from,
        to: w.to,
        state: 'pending',
        totalFound: null,
        pagesDone: 0,
        pagesTotal: null,
      });
      // A size not known exactly: its first page says it, and the runner asks each value alone
      // then if that is cheaper (cheaperToAskEach): one call more than that at most.
      const expected = whole ?? 1;
      plan.calls += expected;
      plan.callsAtMost += size.known === 'exact' ? expected : Math.max(expected, 1 + values.size);
      if (size.known === 'unknown') plan.callsKnown = 'at-least';
      else if (size.known === 'estimate' && plan.callsKnown === 'exact') plan.callsKnown = 'estimate';
      plan.windows.push({ ...entry, strategy: 'window', calls: expected });
      return;
    }
    let calls = 0;
    for (const r of inWindow) {
      if (kind === 'trx_id') {
        // Looked up once, however many windows its rows meet: counted in the first.
        if (!lookups.has(r.value)) calls += 1;
        lookups.add(r.value);
        continue;
      }
      const parts = filters.get(r.value) ?? [];
      for (const p of r.pieces)
        if (overlaps(p, w)) parts.push({ from: Math.max(p.from, w.from), to: Math.min(p.to, w.to) });
      filters.set(r.value, parts);
    }
    plan.windows.push({ ...entry, strategy: kind === 'trx_id' ? 'lookup' : 'filter', calls });
  });
  // One filtered query per value and span of 31 days at most: a number's rows on several days are one query.
  const param = kind === 'trx_id' ? null : kind;
  const filterTasks: StoredTask[] = [];
  for (const [value, parts] of filters) {
    for (const span of hulls(parts)) {
      filterTasks.push({
        id: 0,
        kind: 'filter',
        param,
        value,
        from: span.from,
        to: span.to,
        state: 'pending',
        totalFound: null,
        pagesDone: 0,
        pagesTotal: null,
      });
    }
  }
  // A filtered query is counted in the window it starts in (a value's rows in two windows may be one query).
  for (const t of filterTasks) {
    for (let i = firstEndingAfter(plan.windows, t.from); i < plan.windows.length; i++) {
      const w = plan.windows[i]!;
      if (w.from > t.to) break;
      if (w.strategy === 'filter') {
        w.calls += 1;
        break;
      }
    }
  }
  const askedAlone = filterTasks.length + lookups.size;
  plan.calls += askedAlone;
  plan.callsAtMost += askedAlone;
  for (const t of filterTasks) plan.tasks.push({ ...t, id: nextId++ });
  const spans = new Map<string, TimeRange>();
  for (const r of rows) {
    if (!lookups.has(r.value)) continue;
    for (const p of r.pieces) {
      const known = spans.get(r.value);
      spans.set(r.value, known ? { from: Math.min(known.from, p.from), to: Math.max(known.to, p.to) } : { ...p });
    }
  }
  for (const value of lookups) {
    const span = spans.get(value)!;
    plan.tasks.push({
      id: nextId++,
      kind: 'lookup',
      param: null,
      value,
      from: span.from,
      to: span.to,
      state: 'pending',
      totalFound: null,
      pagesDone: 0,
      pagesTotal: null,
    });
  }
  return plan;
}

/** A value's parts joined into spans of 31 days at most (one filtered query each). */
function hulls(parts: readonly TimeRange[]): TimeRange[] {
  const out: TimeRange[] = [];
  for (const p of [...parts].sort((a, b) => a.from - b.from)) {
    const last = out[out.length - 1];
    if (last && Math.max(last.to, p.to) - last.from <= SEARCH_MAX_RANGE_MS) last.to = Math.max(last.to, p.to);
    else out.push({ ...p });
  }
  return out;
}
