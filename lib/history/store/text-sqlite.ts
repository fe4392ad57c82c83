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
import { prefixSuccessor } from '../../cdr/typed-text';
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
    // The terms that start with it: from it up to its successor (none past the last character).
    const upper = prefixSuccessor(needle);
    const vocabulary = textVocabularyName(scopeNo, month);
    const rows =
      upper === null
        ? await run(`select term from ${vocabulary} where term >= ?`, [needle])
        : await run(`select term from ${vocabulary} where term >= ? and term < ?`, [needle, upper]);
    for (const r of rows) terms.push(phrase(String(r.term)));
  }
  const matches: string[] = [];
  for (let i = 0; i < terms.length; i += TERMS_PER_MATCH)
    matches.push(terms.slice(i, i + TERMS_PER_MATCH).join(' OR '));
  return matches;
}

/** Ids from comma-separated lists, each once (two forms of a text may find the same record). */
export function idsOfLists(lists: readonly string[]): Float64Array {
  const joined = lists.filter((l) => l !== '').join(',');
  if (joined === '') return new Float64Array(0);
  const ids = Float64Array.from(JSON.parse(`[${joined}]`) as number[]);
  if (lists.length < 2) return ids;
  ids.sort();
  let n = 0;
  for (let i = 0; i < ids.length; i++) if (i === 0 || ids[i] !== ids[n - 1]) ids[n++] = ids[i]!;
  return ids.subarray(0, n);
}

/**
 * The ids of the scope's records of `month` whose text holds any of `needles`, in the month's
 * table (when it has one: `hasTable`). One month is the unit of work a lookup is cut into (a month
 * of one account: tens of milliseconds for a common text).
 */
export async function monthMatches(
  run: RunSql,
  scopeNo: number,
  month: number,
  needles: readonly string[],
  hasTable: boolean,
): Promise<Float64Array> {
  if (!hasTable) return new Float64Array(0);
  const table = textTableName(scopeNo, month);
  const lists: string[] = [];
  for (const match of await matchesOf(run, scopeNo, month, needles)) {
    const rows = await run(`select group_concat(rowid) as ids from ${table} where ${table} match ?`, [match]);
    const ids = rows[0]?.ids;
    if (typeof ids === 'string' && ids !== '') lists.push(ids);
  }
  return idsOfLists(lists);
}

/**
 * The ids of the scope's records of these months still waiting for the index (read directly: a
 * few, none once the writer is quiet), each form a LIKE (ASCII case folded, as the index folds it).
 */
export async function pendingMatches(
  run: RunSql,
  scopeNo: number,
  months: readonly number[],
  needles: readonly string[],
): Promise<Float64Array> {
  if (months.length === 0) return new Float64Array(0);
  const likes = needles.map(() => `search_text like ? escape '\\'`).join(' or ');
  const rows = await run(
    `select group_concat(id) as ids from history_text_pending where scope_no = ? and month in (${months.map(() => '?').join(',')}) and (${likes})`,
    [scopeNo, ...months, ...needles.map((n) => `%${likeLiteral(n)}%`)],
  );
  const ids = rows[0]?.ids;
  return typeof ids === 'string' && ids !== '' ? idsOfLists([ids]) : new Float64Array(0);
}

/** The months of `months` the scope has a text table for, each with its version (raised at every change). */
export async function monthsWithTables(
  run: RunSql,
  scopeNo: number,
  months: readonly number[],
): Promise<Map<number, number>> {
  if (months.length === 0) return new Map();
  const rows = await run(
    `select month, version from history_text_months where scope_no = ? and month in (${months.map(() => '?').join(',')})`,
    [scopeNo, ...months],
  );
  return new Map(rows.map((r) => [Number(r.month), Number(r.version)]));
}

/** Arrays of ids one after another. */
export function concatIds(parts: readonly Float64Array[]): Float64Array {
  const out = new Float64Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
