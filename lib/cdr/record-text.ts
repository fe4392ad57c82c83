/**
 * A record's fields as text, the one way the table, the drawer and the pages read them. Apart from
 * cdr-view.ts (what a status or a DLR code means): the table needs only this, and a page should not
 * carry the explanations' words to read a field.
 */
import type { CdrFieldKey } from './fields';

/** A CDR of the table or a record of the detail endpoint: both are read field by field. */
export type RecordLike = Record<string, unknown>;

/** Any field of a record as a string; "" for absent (the seed's "does not apply"). */
export function fieldText(record: RecordLike, key: CdrFieldKey): string {
  const v = record[key];
  return v === null || v === undefined ? '' : String(v);
}
