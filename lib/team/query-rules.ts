/**
 * What a role that sees personal data masked may ask of the records: not free text over the whole
 * record (`q` finds message text and numbers, and answering it, count by count, would give them
 * away a character at a time), not the last digits beyond the four it is shown, not an order by a
 * masked field. It may search by a full number it was given (`da`: on the audit log), by the last
 * four digits, and by text over the client reference, sender ID and trx_id (`id-text`). Browser-safe:
 * the form asks only what the role may, the server refuses the rest (lib/root/with-account.ts).
 */
import { rolesMasked, type Role } from './api';
import { MASKED_FIELDS } from './masking';

/** The last digits a masked role sees of a number, and so may search by. */
export const MASKED_SUFFIX_DIGITS = 4;

/** The parameter a masked role may not send, and why (null when the query is fine for the role). */
export function refusedParam(
  role: Role,
  get: (name: string) => string | null | undefined,
): { param: string; what: string } | null {
  if (!rolesMasked(role)) return null;
  if (get('q'))
    return {
      param: 'q',
      what: 'Free text over message text and numbers (q; text over the reference, sender ID and transaction ID is id-text)',
    };
  const suffix = get('da-suffix');
  if (suffix && suffix.replace(/\D/g, '').length > MASKED_SUFFIX_DIGITS)
    return {
      param: 'da-suffix',
      what: `Searching by more than the last ${MASKED_SUFFIX_DIGITS} digits of a number (da-suffix)`,
    };
  const sort = get('sort');
  if (sort && MASKED_FIELDS.includes(sort))
    return { param: 'sort', what: `Sorting by ${sort}, which your role sees masked` };
  return null;
}
