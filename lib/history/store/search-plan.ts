/**
 * The planner of the local history's searches: which executor answers a search, from its shape
 * and what its free text found. The executors are the rollups (./search-rollups.ts: counts of
 * what they are kept by, and deep pages sought through them), the day packs
 * (./search-packs.ts: free text and bounds over complete days, tens of thousands of matches
 * scanned as typed arrays) and SQL (./search-sql.ts: everything else, one read for a count and a
 * page). Pure.
 */
import { packsServe } from './day-pack';
import { rollupsServe } from './rollups';
import type { LocalSearch } from './search-types';

/**
 * Finds of a free text looked up record by record rather than scanned through the day packs: a
 * text found a few times (part of a reference) is read in a few ms, sooner than a month of packs
 * is scanned (tens).
 */
export const FEW_FINDS = 2_000;

/** A lookup by id costs about this many steps of a scan of the range in received-time order. */
const LOOKUP_COST = 4;

export type SearchWay =
  /** Counted by the rollups; a page by SQL, deep ones sought through the rollups first. */
  | 'rollups'
  /** Counted and paged from the day packs of its complete days (SQL for the rest); SQL alone when there are none. */
  | 'packs'
  /** Counted and paged by SQL, from one read. */
  | 'sql';

const inReceivedOrder = (search: LocalSearch) =>
  !search.sort || ('column' in search.sort && search.sort.column === 'received_ms');

/**
 * The executor of a search. `finds`: how many records its free text found (null: no text).
 * `fewFinds`: up to how many finds the text is looked up record by record (a test sets 0 to have
 * the packs answer every text).
 */
export function wayOf(search: LocalSearch, finds: number | null, fewFinds = FEW_FINDS): SearchWay {
  if (rollupsServe(search)) return 'rollups';
  if (inReceivedOrder(search) && packsServe(search.where) && (finds === null || finds > fewFinds)) return 'packs';
  return 'sql';
}

/**
 * Whether SQL reads a free text's finds first (each looked up by id) or the range first (each
 * record tested against the finds): whichever reads fewer rows. `rangeRecords`: the range's
 * records, counted by the rollups (asked only when the finds are not few).
 */
export async function textFirst(finds: number, rangeRecords: () => Promise<number>): Promise<boolean> {
  if (finds <= FEW_FINDS) return true;
  return finds * LOOKUP_COST < (await rangeRecords());
}

/**
 * Whether an order by a column with an index of its own reads that index (checking each record's
 * time against the range) rather than sorting the range: whichever reads fewer records. Reading
 * the index in order, a page at `end` (offset + limit) is found after about end × scope ÷ range
 * records; sorting reads the range's every record (and sorts them).
 */
export function orderFromIndex(end: number, rangeRecords: number, scopeRecords: number): boolean {
  if (rangeRecords <= 0) return false;
  return (end * scopeRecords) / rangeRecords < rangeRecords * 2;
}
