/**
 * The name the local history's SQLite file is attached under on the server's connection
 * (lib/db/history-file.ts), which the migrations that create its tables write to. Here, with
 * the migrations, so they need nothing from the folder that runs them.
 */
export const HISTORY_SCHEMA = 'history';

/**
 * Bytes per page of a history file created from now on (SQLite's default is 4,096). Its records
 * are written a day at a time (about 5 MB a day of a busy account) into a dozen indexes and a text
 * index: with pages four times larger, a day's transaction writes a quarter of the pages to the
 * log, and each index has fewer levels to walk and split: about 0.9 ms less of the copy's own cost
 * a page; 8 KB gives half of that, 32 and 64 KB no more (bench/NOTES.md). A file that exists keeps
 * its page size (SQLite changes it in WAL mode only by copying the whole file): either size works.
 * Here, with the migrations: 0040-history-compact writes a new history file with them.
 */
export const HISTORY_PAGE_BYTES = 16_384;

/**
 * The settings every connection to the history file needs, on schema `schema`: its page size
 * (taken only by a file still empty, so before anything else), WAL (the server reads while the
 * writer writes), durable across a process crash, and deleted records (phone numbers, bodies)
 * overwritten with zeros rather than left in free pages.
 */
export function historyFilePragmas(schema: string): string[] {
  return [
    `pragma ${schema}.page_size = ${HISTORY_PAGE_BYTES}`,
    `pragma ${schema}.journal_mode = WAL`,
    `pragma ${schema}.synchronous = NORMAL`,
    `pragma ${schema}.secure_delete = ON`,
  ];
}
