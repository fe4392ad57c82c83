/**
 * SQLite's free text (FTS5, trigram tokenizer): the ids of a scope's records holding a text, one
 * UTC month's table at a time (lib/db/migrations/history-text-tables.ts), and the records stored
 * since the index last caught up (`history_text_pending`, read directly). Runs on the text
 * thread's own connection (./text-worker.ts) or, for a store without one, on the server's; it
 * only needs a way to run a statement.
 *
 * A text of three characters or more is a phrase of its trigrams. One or two characters (Japanese
 * is searched by two as often as by three: 配達, 予約) are every trigram of the month's index that
 * starts with them, found in its vocabulary (a range of its sorted terms): every indexed text ends
 * with two line ends, so each character has two after it.
 */
import { likeLiteral } from './text-search';
import { textTableName, textVocabularyName } from '../../db/migrations/history-text-tables';

/** Runs one statement with its values and answers its rows. */
export type RunSql = (statement: string, values: readonly unknown[]) => Promise<Record<string, unknown>[]>;

/** Terms OR-ed in one MATCH at most: FTS5 nests an OR per term and refuses a tree deeper than 256. */
const TERMS_PER_MATCH = 200;

/** FTS5's query syntax for a string: one phrase. */
export const phrase = (text: string) => `"${text.replace(/"/g, '""')}"`;

/** Whether the trigram index finds this form as a phrase (else through its vocabulary). */
const isPhrase = (needle: string) => [...needle].length >= 3;

/** The MATCH expressions that find any of the forms in one month's table (several when terms are many). */
async function matchesOf(run: RunSql, scopeNo: number, month: number, needles: readonly string[]): Promise<string[]> {
  const terms: string[] = [];
  for (const needle of needles) {
    if (isPhrase(needle)) {
      terms.push(phrase(needle));
      continue;
    }
    const chars = [...needle];
    const last = chars.pop()!;
    const upper = chars.join('') + String.fromCodePoint(last.codePointAt(0)! + 1);
    const rows = await run(`select term from ${textVocabularyName(scopeNo, month)} where term >= ? and term < ?`, [
      needle,
      upper,
    ]);
    for (const r of rows) terms.push(phrase(String(r.term)));
  }
  const matches: string[] = [];
  for (let i = 0; i < terms.length; i += TERMS_PER_MATCH)
    matches.push(terms.slice(i, i + TERMS_PER_MATCH).join(' OR '));
  return matches;
}

/**
 * The ids (comma-separated, or null) of the scope's records of `month` whose text holds any of
 * `needles`: the month's table, if it has one, and the texts still pending. One month is the unit
 * of work a search is cut into (a month of one account: tens of milliseconds for a common text).
 */
export async function monthMatches(
  run: RunSql,
  scopeNo: number,
  month: number,
  needles: readonly string[],
  hasTable: boolean,
): Promise<string[]> {
  const lists: string[] = [];
  if (hasTable) {
    const table = textTableName(scopeNo, month);
    for (const match of await matchesOf(run, scopeNo, month, needles)) {
      const rows = await run(`select group_concat(rowid) as ids from ${table} where ${table} match ?`, [match]);
      const ids = rows[0]?.ids;
      if (typeof ids === 'string' && ids !== '') lists.push(ids);
    }
  }
  // Pending texts are few (none once the writer is quiet): read, each form a LIKE (ASCII case folded as the index folds it).
  const likes = needles.map(() => `search_text like ? escape '\\'`).join(' or ');
  const pending = await run(
    `select group_concat(id) as ids from history_text_pending where scope_no = ? and month = ? and (${likes})`,
    [scopeNo, month, ...needles.map((n) => `%${likeLiteral(n)}%`)],
  );
  const ids = pending[0]?.ids;
  if (typeof ids === 'string' && ids !== '') lists.push(ids);
  return lists;
}

/** The months of `months` the scope has a text table for. */
export async function monthsWithTables(run: RunSql, scopeNo: number, months: readonly number[]): Promise<Set<number>> {
  if (months.length === 0) return new Set();
  const rows = await run(
    `select month from history_text_months where scope_no = ? and month in (${months.map(() => '?').join(',')})`,
    [scopeNo, ...months],
  );
  return new Set(rows.map((r) => Number(r.month)));
}
