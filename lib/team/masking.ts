/**
 * The one masking rule (README, "Team mode"): what a role that sees personal data masked is shown
 * of a record. A phone number — `to_address`, and `from_address` when it is a number — keeps its
 * first 2 and last 4 digits and every other digit becomes `*` (819012345678 → 81******5678); the
 * message text (`message_body`, `unencrypted_message_body`) is empty. Pure and browser-safe: the
 * server applies it on the way out (./presenter.ts, export files), the page only shows its result.
 */
import type { Cdr } from '../cdr/schema';

/** Digits kept at each end. */
const KEPT_FIRST = 2;
const KEPT_LAST = 4;

/** Fields whose text is not shown at all. */
export const HIDDEN_TEXT_FIELDS = ['message_body', 'unencrypted_message_body'] as const;
/** Fields that hold a phone number (from_address only when it is one: a sender ID may be a brand). */
export const NUMBER_FIELDS = ['to_address', 'from_address'] as const;
/** Every field the rule changes: a masked role may not sort or filter by their hidden parts. */
export const MASKED_FIELDS: readonly string[] = [...NUMBER_FIELDS, ...HIDDEN_TEXT_FIELDS];

/** A sender ID that is a number (a long code), not a brand name: "+815012345678", "20400". */
export function isNumber(value: string): boolean {
  return /^\+?\d+$/.test(value);
}

/**
 * `value` with every digit but its first 2 and last 4 replaced by `*`; anything else (a "+", a
 * space) stays where it is. A number of 6 digits or fewer has nothing between its ends: it stays.
 */
export function maskNumber(value: string): string {
  const digits = value.replace(/\D/g, '').length;
  let seen = 0;
  return value.replace(/\d/g, (d) => {
    seen += 1;
    return seen <= KEPT_FIRST || seen > digits - KEPT_LAST ? d : '*';
  });
}

/** A sender as a masked role sees it: a number masked, a brand name as it is. */
export function maskSender(value: string): string {
  return isNumber(value) ? maskNumber(value) : value;
}

/** Whether a value is shown masked (a number with its middle digits starred): nothing to filter or copy by. */
export function isMaskedValue(value: string): boolean {
  return /\d\*+\d/.test(value);
}

/** A record as a masked role sees it: a new object, the record itself untouched. */
export function maskRecord<T extends Cdr | Record<string, unknown>>(record: T): T {
  const out: Record<string, unknown> = { ...record };
  if (typeof out.to_address === 'string') out.to_address = maskNumber(out.to_address);
  if (typeof out.from_address === 'string') out.from_address = maskSender(out.from_address);
  for (const field of HIDDEN_TEXT_FIELDS) if (field in out) out[field] = '';
  return out as T;
}
