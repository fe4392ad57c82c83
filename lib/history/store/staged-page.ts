/**
 * How a page of a day being synced is staged (history_staged_pages.records): its records as the
 * upstream sent them (checked), one JSON document a line. JSON never holds a raw line break, so a
 * record's own text is its line: the history writer keeps it as the record's body as it is, rather
 * than parsing the page and writing each record again.
 */
import type { Cdr } from '../../cdr/schema';

export function stagedPage(cdrs: readonly Cdr[]): string {
  return cdrs.map((cdr) => JSON.stringify(cdr)).join('\n');
}

/** The records of a staged page, each with its text. */
export function* stagedRecords(page: string): Generator<{ cdr: Cdr; text: string }> {
  for (const text of page.split('\n')) if (text !== '') yield { cdr: JSON.parse(text) as Cdr, text };
}
