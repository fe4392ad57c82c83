import 'server-only';
/**
 * Free text (`q`) over the local history: what both dialects' text indexes answer alike. A text
 * is looked for in the forms of textNeedles; each dialect finds the records that hold any of them
 * its own way — SQLite's FTS5 trigram tables per scope and month (./text-sqlite.ts, off the
 * server's thread: ./text-thread.ts), PostgreSQL's pg_trgm index per scope (./text-postgres.ts) —
 * behind TextIndex, the one thing the searches (./history-search.ts) and Insights know of them.
 */
import type { Expression, SqlBool } from 'kysely';
import { searchFolded } from '../../cdr/typed-text';
import { textMonthsBetween } from '../../db/migrations/history-text-tables';
import type { TimeRange } from '../../query/ranges';

/**
 * The forms a free text is looked for in: as typed (in lower case), and folded as records are
 * stored (lib/cdr/typed-text.ts searchFolded: ｻｸﾗ as サクラ, ＯＲＤ as ord, ㈱ as (株)). A record
 * an earlier version copied holds its text unfolded and is found by the form it holds. One form when folding changes nothing.
 */
export function textNeedles(text: string): string[] {
  return [...new Set([text.toLowerCase(), searchFolded(text)])];
}

/** `%` and `_` are wildcards in LIKE: a literal search escapes them (and the escape character). */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The UTC months (YYYYMM) the ranges touch, each once, in order. */
export function monthsOf(ranges: readonly TimeRange[]): number[] {
  const months = new Set<number>();
  for (const r of ranges) for (const m of textMonthsBetween(r.from, r.to)) months.add(m);
  return [...months].sort((a, b) => a - b);
}

/** The records a free text finds, as their ids: each once, in no order. */
export type TextIds = Float64Array;

export interface TextIndex {
  /**
   * The ids of the scope's records whose text holds any form of `text`, among (at least) those
   * received in the UTC months `ranges` touch: the caller keeps the ones in its ranges.
   */
  matchIds(scopeNo: number, ranges: readonly TimeRange[], text: string): Promise<TextIds>;
  /**
   * A condition on history_records: its text holds any form of `text`. `ids`, when the dialect
   * needs them (needsIds), are matchIds' answer for the search's ranges.
   */
  condition(text: string, ids: TextIds | null): Expression<SqlBool>;
  /** Whether `condition` needs the ids (SQLite: its index answers with ids; PostgreSQL tests the row). */
  readonly needsIds: boolean;
}

/** Ids from their text ("1,5,9"), as a typed array, ascending and each once. */
export function idsOfList(list: string | null | undefined): TextIds {
  if (!list) return new Float64Array(0);
  const ids = Float64Array.from(JSON.parse(`[${list}]`) as number[]);
  return uniqueSorted(ids);
}

/** The ids ascending, each once (in place where it can). */
export function uniqueSorted(ids: Float64Array): Float64Array {
  ids.sort();
  let n = 0;
  for (let i = 0; i < ids.length; i++) if (i === 0 || ids[i] !== ids[n - 1]) ids[n++] = ids[i]!;
  return n === ids.length ? ids : ids.slice(0, n);
}
