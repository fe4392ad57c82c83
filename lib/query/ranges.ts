/**
 * Splitting an export into ranges the upstream can serve: at most 31 days each (seed §8) and at most
 * 1000 pages each (a window deeper than that is split again once its total_found is known).
 *
 * Consecutive windows share their boundary instant ([a, b], [b, c]): the upstream reads date-to to
 * the second while records carry milliseconds, and whether it includes the end is undocumented. A
 * shared boundary can only make a record appear twice — de-duplicated by trx_id — where a gap of a
 * second could lose every record received in it.
 */
import { MAX_PAGE, SEARCH_MAX_RANGE_MS as MAX_RANGE_MS, type SortOrder } from './query';
import { receivedMs } from '../cdr/record-columns';
import { SECOND_MS } from '../time/units';
import { msg, type Message } from '../i18n/message';

/** A range of instants (ms), both ends whole seconds, inclusive. */
export interface TimeRange {
  from: number;
  to: number;
}

/**
 * Ranges in time order, those that touch or overlap joined: a month of whole days is one range.
 * (A WHERE with one `between` per day makes SQLite test every row against each; a deep page of the
 * local history can be sought only in one range.)
 */
export function joinRanges(ranges: readonly TimeRange[]): TimeRange[] {
  const out: TimeRange[] = [];
  for (const r of [...ranges].sort((a, b) => a.from - b.from)) {
    const last = out[out.length - 1];
    if (last && r.from <= last.to + 1) last.to = Math.max(last.to, r.to);
    else out.push({ from: r.from, to: r.to });
  }
  return out;
}

/** Consecutive ranges of at most `maxMs` covering [from, to], in time order. */
export function splitRange(from: number, to: number, maxMs: number = MAX_RANGE_MS): TimeRange[] {
  if (to <= from) return [];
  const step = Math.max(SECOND_MS, Math.floor(maxMs / SECOND_MS) * SECOND_MS);
  const out: TimeRange[] = [];
  for (let start = from; start < to; start += step) out.push({ from: start, to: Math.min(start + step, to) });
  return out;
}

/** Share of the upstream's reach a split aims at, so a window a little denser than average still fits. */
const TARGET_SHARE = 0.8;

/**
 * A window holding more records than the upstream can page through, cut into equal spans sized
 * for the density seen. Null when it cannot be cut (shorter than two seconds).
 */
export function splitForDepth(range: TimeRange, totalFound: number, reachableRecords: number): TimeRange[] | null {
  if (totalFound <= reachableRecords) return [range];
  const span = range.to - range.from;
  if (span < 2 * SECOND_MS) return null;
  const parts = Math.max(2, Math.ceil(totalFound / (reachableRecords * TARGET_SHARE)));
  const step = Math.max(SECOND_MS, Math.ceil(span / parts / SECOND_MS) * SECOND_MS);
  return splitRange(range.from, range.to, step);
}

/** The order the windows are read in, so the file comes out in the query's sort order. */
export function inSortOrder<T extends TimeRange>(ranges: readonly T[], sort: SortOrder): T[] {
  const byTime = [...ranges].sort((a, b) => a.from - b.from);
  return sort === 'desc' ? byTime.reverse() : byTime;
}

/** Upstream pages needed for `total` records, never more than the upstream serves. */
export function pagesFor(total: number, pageSize: number, maxPage: number): number {
  return Math.min(maxPage, Math.ceil(total / pageSize));
}

/** The most records the upstream can reach for one query (it stops at page 1000). */
export function reachableRecords(pageSize: number): number {
  return MAX_PAGE * pageSize;
}

/**
 * Whether an upstream page holds what its own count promises: as many records as are left at its
 * place (a full page, or the rest on the last), each once. One that does not (a page short, a
 * record twice: an upstream whose pages and count disagree) may be shown, but is not kept — not
 * cached, not copied into the local history — where it would stand for the whole result.
 */
export function pageIsWhole(body: PageBody, page: number, pageSize: number): boolean {
  return pageFault(body, page, pageSize) === null;
}

type PageBody = { _embedded: { total_found: number; cdrs: readonly { trx_id: string; date_received?: unknown }[] } };

/**
 * What is wrong with an upstream page that is not whole (see pageIsWhole), as Words for a person
 * (messages/<locale>/query.json `pageFault`); null when it is whole.
 */
export function pageFault(body: PageBody, page: number, pageSize: number): Message | null {
  const { total_found: total, cdrs } = body._embedded;
  const expected = Math.max(0, Math.min(pageSize, total - (page - 1) * pageSize));
  const distinct = new Set(cdrs.map((c) => c.trx_id.toLowerCase())).size;
  if (cdrs.length !== expected) return msg('query.pageFault.short', { page, held: cdrs.length, total, expected });
  if (distinct !== cdrs.length) return msg('query.pageFault.twice', { page, count: cdrs.length - distinct });
  // A record that cannot be placed in time cannot be kept where it belongs (the local history
  // would leave it out of a result it calls complete), nor sorted or counted by day.
  const unplaced = cdrs.filter((c) => receivedMs(c) === null).length;
  if (unplaced > 0) return msg('query.pageFault.unplaced', { page, count: unplaced });
  return null;
}
