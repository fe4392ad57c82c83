/**
 * A search of the local history's records, as the searches (./history-search.ts), their planner
 * (./search-plan.ts), its executors (rollups, day packs, SQL) and Insights read it. Types only.
 */
import type { HistoryRecordsTable } from '../../db/schema';
import type { TextIds } from './text-search';

/** The columns a search can filter or sort on. */
export type RecordColumn = Exclude<
  keyof HistoryRecordsTable,
  'id' | 'scope_no' | 'search_text' | 'body_block' | 'body_pos'
>;

export type Condition =
  | { column: RecordColumn; op: '=' | '>=' | '<='; value: string | number }
  /** Text that starts with `value` (a range on the column, so an index serves it). */
  | { column: RecordColumn; op: 'prefix'; value: string }
  /**
   * Text found anywhere in the column or in any of `or`, case-insensitively (LIKE): the identifiers'
   * free text (`id-text`, what a role that sees numbers masked may search by). Neither the rollups
   * nor the day packs answer it: SQL does.
   */
  | { column: RecordColumn; op: 'contains'; value: string; or: readonly RecordColumn[] };

/** How to order: a column, or a field of the record that has none (read from the record's JSON). */
export type SortKey = { column: RecordColumn } | { field: string; numeric: boolean };

export interface LocalSearch {
  scope: string;
  /** Instants (ms), both ends inclusive; the search covers their union. */
  ranges: readonly { from: number; to: number }[];
  where: readonly Condition[];
  /** Free text: a case-insensitive substring of the record's searchable fields. */
  text?: string;
  /** Defaults to received time; ties always go by received time, then trx_id, in the same direction. */
  sort?: SortKey;
  order: 'asc' | 'desc';
}

/**
 * A search made ready to run: its scope's number (the records name their scope by it), and the
 * ids its free text found when the text is answered by ids (SQLite always; the day packs on
 * either dialect), over the UTC months of its ranges.
 */
export interface ResolvedSearch extends LocalSearch {
  scopeNo: number;
  textIds: TextIds | null;
}
