/**
 * Syncing one UTC day in full, page by page: which upstream page comes next, and what a page
 * teaches. Pure, so a restart resumes from the stored progress and the rules are tested alone.
 *
 * A day D is asked as [D 00:00:00, D+1 00:00:00]: the upstream reads date-to to the second and
 * includes it, while records carry milliseconds, so asking up to D 23:59:59 would lose the records
 * of its last second. The records received exactly at D+1 00:00:00.000 belong to the next day; they
 * are kept too (the complete day then holds that instant, see coverage.ts) and counted apart
 * (`boundary`).
 *
 * A day deeper than the upstream's 1000 pages is split into narrower windows (as exports are);
 * windows share their boundary instants, so a record can come twice and is kept once.
 */
import { inSortOrder, pagesFor, reachableRecords, splitForDepth } from '../query/ranges';
import { MAX_PAGE } from '../query/query';
import { msg, type Words } from '../i18n/message';
import { DAY_MS } from '../time/units';
import { startOf } from './days';

export interface DayWindow {
  id: number;
  /** Instants (ms), whole seconds, inclusive. */
  from: number;
  to: number;
  state: 'pending' | 'done' | 'split';
  total: number | null;
  pagesDone: number;
  pagesTotal: number | null;
  /** Records the upstream sent for this window. */
  received: number;
  /**
   * The page size its pages are counted at (lib/history/sync-page-size.ts): the size the upstream
   * served, which a window keeps while it is read unless the upstream serves or accepts less.
   * Absent: a window read before sizes were kept, at the seed's 100.
   */
  pageSize?: number;
}

/** The page size of a window read before sizes were kept. */
export const LEGACY_PAGE_SIZE = 100;

/** The size a window's pages are counted at. */
export const pageSizeOf = (w: DayWindow) => w.pageSize ?? LEGACY_PAGE_SIZE;

export interface DayProgress {
  windows: DayWindow[];
  nextId: number;
  /** Records read that belong to the next day (received exactly at the day's end). */
  boundary: number;
  /** Times a window was read again from its first page because its count moved. */
  restarts: number;
  /**
   * Why the day cannot be completed, when it cannot: Words (a catalogue key and values), said in the
   * reader's language when the History page asks; a row stored before that holds English text.
   */
  problem: Words | null;
  /** The problem stopped the whole copy (the upstream refused its query for good), not only this day. */
  stoppedCopy?: boolean;
  /** Calls in a row the upstream failed on this day (a page read sets it back to 0; absent: 0). */
  failures?: number;
  /** Times the day had a problem and was read afresh after resting (absent: 0). */
  rests?: number;
}

/** A window whose count keeps moving is given up after this many fresh starts (settled days do not move). */
export const MAX_RESTARTS = 3;

export function startDay(day: string): DayProgress {
  const from = startOf(day);
  return {
    windows: [
      { id: 1, from, to: from + DAY_MS, state: 'pending', total: null, pagesDone: 0, pagesTotal: null, received: 0 },
    ],
    nextId: 2,
    boundary: 0,
    restarts: 0,
    problem: null,
  };
}

/** The next page to read, or null when every window is read. Windows go oldest first, pages ascending. */
export function nextPage(p: DayProgress): { window: DayWindow; page: number } | null {
  if (p.problem) return null;
  const w = p.windows.find((x) => x.state === 'pending');
  return w ? { window: w, page: w.pagesDone + 1 } : null;
}

/** Every window read, every count as the upstream reported it: the day is complete. */
export function isComplete(p: DayProgress): boolean {
  if (p.problem) return false;
  const leaves = p.windows.filter((w) => w.state !== 'split');
  return (
    leaves.length > 0 &&
    leaves.every(
      (w) => w.state === 'done' && w.total !== null && w.received === w.total && w.pagesDone === w.pagesTotal,
    )
  );
}

/**
 * Applies a page of window `windowId` to the progress (mutates it): learns the window's size (and
 * splits a window deeper than the upstream reaches), counts what came, notes a count that moved.
 * `boundaryHits` is how many of the page's records belong to the next day.
 */
export function applyPage(
  p: DayProgress,
  windowId: number,
  page: number,
  total: number,
  records: number,
  boundaryHits: number,
  pageSize: number,
): void {
  const w = p.windows.find((x) => x.id === windowId);
  if (!w) throw new Error(`no window ${windowId}`);
  p.failures = 0;
  const reach = reachableRecords(pageSize);
  if (w.total === null) {
    w.total = total;
    // A window of no records still takes a page: the one that told its count.
    w.pagesTotal = Math.max(1, pagesFor(total, pageSize, MAX_PAGE));
    if (total > reach) {
      const parts = splitForDepth(w, total, reach);
      if (!parts || parts.length < 2) {
        p.problem = msg('history.server.tooDense', { total });
        return;
      }
      w.state = 'split';
      const children = inSortOrder(parts, 'asc').map((r) => ({
        id: p.nextId++,
        from: r.from,
        to: r.to,
        state: 'pending' as const,
        total: null,
        pagesDone: 0,
        pagesTotal: null,
        received: 0,
      }));
      p.windows.splice(p.windows.indexOf(w) + 1, 0, ...children);
      return;
    }
  } else if (total !== w.total) {
    // The count moved under us: read the window again from its first page (records are kept once).
    p.restarts += 1;
    if (p.restarts > MAX_RESTARTS) {
      p.problem = msg('history.server.countChanged', { before: w.total, after: total });
      return;
    }
    Object.assign(w, { total: null, pagesDone: 0, pagesTotal: null, received: 0, state: 'pending' });
    return;
  }
  w.pagesDone = page;
  w.received += records;
  if (w.to === lastInstantOf(p)) p.boundary += boundaryHits;
  if (w.pagesDone < (w.pagesTotal ?? 0) && records > 0) return;
  w.state = 'done';
  // Read to its end, but not as the upstream counted it (a page short or empty before the last,
  // pages smaller than asked for): there is no page left to read, so without a problem the sync
  // would come back to this day at once, forever. It rests instead and is read afresh later.
  if (w.received !== w.total || w.pagesDone !== w.pagesTotal) {
    p.problem = msg('history.server.pagesShort', {
      total: w.total ?? 0,
      from: utcSecond(w.from),
      to: utcSecond(w.to),
      received: w.received,
      done: w.pagesDone,
      pages: w.pagesTotal ?? 0,
    });
  }
}

/** A window's end as people read it: its UTC instant to the second. */
function utcSecond(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** The day's end instant (the next day's first), the only one whose records are not the day's. */
function lastInstantOf(p: DayProgress): number {
  return Math.max(...p.windows.map((w) => w.to));
}

/**
 * Counts a window's pages at `size` from now on (the upstream refused its size, or serves less):
 * the pages read so far are those its records fill, a page read in part is read again (its
 * records are kept once), and no page already read at the new size is asked for twice. A window
 * deeper than the upstream reaches at the new size is read afresh (its first page splits it).
 */
export function resizeWindow(w: DayWindow, size: number): void {
  w.pageSize = size;
  if (w.total === null) return;
  if (w.total > reachableRecords(size)) {
    Object.assign(w, { total: null, pagesDone: 0, pagesTotal: null, received: 0, state: 'pending' });
    return;
  }
  const done = Math.floor(w.received / size);
  w.pagesDone = done;
  w.received = done * size;
  w.pagesTotal = Math.max(1, pagesFor(w.total, size, MAX_PAGE));
  if (w.state === 'done' && w.pagesDone < w.pagesTotal) w.state = 'pending';
}

/**
 * Checks a day read in full against the records held (`held`: records held received in [from, to],
 * both included). Each window's count is the upstream's for its span, instants shared with the next
 * window included, so the held records counted the same way must come to the same sum. They do not
 * when the upstream sent a record twice (on two pages: an order with no stable tie) and another
 * never: every count matched, yet a record is missing. Answers the progress with a problem then
 * (the day rests and is read afresh), else null.
 */
export async function verifyHeld(
  p: DayProgress,
  held: (from: number, to: number) => Promise<number>,
): Promise<DayProgress | null> {
  let counted = 0;
  let have = 0;
  for (const w of p.windows) {
    if (w.state === 'split') continue;
    counted += w.total ?? 0;
    have += await held(w.from, w.to);
  }
  if (have === counted) return null;
  return {
    ...p,
    problem: msg('history.server.recordsMissing', { counted, have }),
  };
}

/** Whether a record belongs to the day that starts at `dayStartMs`. */
export function inDay(dayStartMs: number, receivedMs: number): boolean {
  return receivedMs >= dayStartMs && receivedMs < dayStartMs + DAY_MS;
}
