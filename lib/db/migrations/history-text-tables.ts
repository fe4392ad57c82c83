/**
 * SQLite's text index of the local history, one FTS5 table per scope and UTC month (created by
 * migration 0040-history-compact and, as records of a new month or scope come, by the history
 * writer: lib/history/store/text-sqlite-writes.ts). Beside the migrations because both create them
 * alike.
 *
 * Why a table per scope and month: FTS5 reads a text's whole posting lists whatever the rows
 * asked for (a condition on the rowid does not shorten the read: measured, a range of a twelfth of
 * the rows took as long as all of them). In one table, every account's records of a common text
 * were read for each search of any account. Apart, a search reads its own account's months of its
 * range only, and a month is a bounded unit of work.
 *
 * Contentless (`content=''`): the text is kept in the index only, not a second time in the records'
 * table; `contentless_delete` lets a record's entry be deleted by its rowid (the record's id), and
 * `secure-delete` removes a deleted record's terms at once, not at the index's next merge.
 */

/** A UTC month as the tables name it: YYYYMM (202612). */
export function textMonthOf(ms: number): number {
  const d = new Date(ms);
  return d.getUTCFullYear() * 100 + d.getUTCMonth() + 1;
}

/** The months (YYYYMM) from the one of `fromMs` to the one of `toMs`, both included. */
export function textMonthsBetween(fromMs: number, toMs: number): number[] {
  const months: number[] = [];
  const first = new Date(fromMs);
  let year = first.getUTCFullYear();
  let month = first.getUTCMonth() + 1;
  const last = textMonthOf(toMs);
  for (let m = year * 100 + month; m <= last; m = year * 100 + month) {
    months.push(m);
    month += 1;
    if (month > 12) [year, month] = [year + 1, 1];
  }
  return months;
}

/** The FTS5 table of a scope's month (scope numbers and months are integers: safe in a name). */
export function textTableName(scopeNo: number, month: number): string {
  if (!Number.isSafeInteger(scopeNo) || !Number.isSafeInteger(month)) throw new Error('not a text table');
  return `history_text_${scopeNo}_${month}`;
}

/** Its vocabulary (fts5vocab, one row per term): a text of one or two characters is its terms that start so. */
export function textVocabularyName(scopeNo: number, month: number): string {
  return `${textTableName(scopeNo, month)}_v`;
}

/**
 * The statements that create a scope's month table and its vocabulary in schema `schema` (the
 * history file's name on the connection), and register it in `history_text_months`.
 */
export function createTextTableStatements(schema: string, scopeNo: number, month: number): string[] {
  const table = textTableName(scopeNo, month);
  return [
    `create virtual table if not exists ${schema}.${table} using fts5(search_text, content='', contentless_delete=1, tokenize='trigram')`,
    `insert into ${schema}.${table}(${table}, rank) values ('secure-delete', 1)`,
    `create virtual table if not exists ${schema}.${textVocabularyName(scopeNo, month)} using fts5vocab(${table}, 'row')`,
    `insert or ignore into ${schema}.history_text_months (scope_no, month) values (${scopeNo}, ${month})`,
  ];
}

/** The statements that drop a scope's month table, its vocabulary and its registration. */
export function dropTextTableStatements(schema: string, scopeNo: number, month: number): string[] {
  return [
    `drop table if exists ${schema}.${textVocabularyName(scopeNo, month)}`,
    `drop table if exists ${schema}.${textTableName(scopeNo, month)}`,
    `delete from ${schema}.history_text_months where scope_no = ${scopeNo} and month = ${month}`,
  ];
}

/**
 * The text the index keeps of a record: its searchable text (lib/cdr/record-columns.ts
 * searchText, lines) and two line ends. Every character then has two more after it, so a text of
 * one or two characters is found as the trigrams that start with it, the text's last ones
 * included.
 */
export function indexedText(searchText: string): string {
  return `${searchText}\n\n`;
}
