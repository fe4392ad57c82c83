/**
 * What a role that sees personal data masked may ask of the records: not free text over the whole
 * record (`q` finds message text and numbers, and answering it, count by count, would give them
 * away a character at a time), not the last digits beyond the four it is shown, not an order by a
 * masked field. It may search by a full number it was given (`da`: on the audit log), by the last
 * four digits, and by text over the client reference, sender ID and trx_id (`id-text`). Browser-safe:
 * the form asks only what the role may, the server refuses the rest (lib/root/with-account.ts).
 */
import { msg, type Words } from '../i18n/message';
import { rolesMasked, type Role } from './api';
import { MASKED_FIELDS } from './masking';

/** The last digits a masked role sees of a number, and so may search by. */
export const MASKED_SUFFIX_DIGITS = 4;

/** The parameter a masked role may not send, and what it would do, said in the 403 (null when the query is fine). */
export function refusedParam(
  role: Role,
  get: (name: string) => string | null | undefined,
): { param: string; what: Words } | null {
  if (!rolesMasked(role)) return null;
  if (get('q')) return { param: 'q', what: msg('team.problems.roleNeeded.whatFreeText') };
  const suffix = get('da-suffix');
  if (suffix && suffix.replace(/\D/g, '').length > MASKED_SUFFIX_DIGITS)
    return { param: 'da-suffix', what: msg('team.problems.roleNeeded.whatSuffix', { digits: MASKED_SUFFIX_DIGITS }) };
  const sort = get('sort');
  if (sort && MASKED_FIELDS.includes(sort))
    return { param: 'sort', what: msg('team.problems.roleNeeded.whatSort', { field: sort }) };
  return null;
}
