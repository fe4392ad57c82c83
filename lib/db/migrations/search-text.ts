/**
 * Beside the migrations because 0021 writes search text too: the history writer and that migration
 * write a record's search text one way.
 */
import type { SqlDialect } from './column-types';

/**
 * The text SQLite's trigram index keeps of a record: its searchable text and a line end. The line
 * end gives every pair of characters a third (two wide characters are found through the trigrams
 * that start with them: history-search.ts ftsMatch), the text's last two included. Copies stored
 * before this also hold every pair of wide characters followed by U+0001: those trigrams start
 * with their pair too, so the same search finds them.
 */
function indexedText(text: string): string {
  return `${text}\n`;
}

/** A record's search_text as this dialect's table stores it (SQLite's for its trigram index). */
export function storedSearchText(text: string, dialect: SqlDialect): string {
  return dialect === 'sqlite' ? indexedText(text) : text;
}
