/**
 * The filters of the seed (§4.1) with the validation the server applies and the browser repeats.
 * Labels and the field each filter narrows come from CDR_FIELDS.
 */
import { FIELD_BY_KEY } from '../cdr/fields';
import { DELIVERY_STATUS_VALUES } from '../cdr/status';

export interface FilterDef {
  readonly param: 'api-key' | 'network' | 'client-reference' | 'da' | 'oa' | 'status' | 'enterprise-id';
  /** The CDR field the filter narrows. */
  readonly field: string;
  readonly maxLength: number;
  readonly pattern: RegExp;
  /** What a valid value looks like, said to the person who typed an invalid one. */
  readonly hint: string;
  readonly options?: readonly string[];
}

export const FILTERS: readonly FilterDef[] = [
  { param: 'api-key', field: 'api_key', maxLength: 64, pattern: /^[A-Za-z0-9._-]+$/, hint: 'letters, digits, ".", "_" or "-", up to 64' },
  { param: 'network', field: 'network_code', maxLength: 6, pattern: /^\d{5,6}$/, hint: 'a network code of 5 or 6 digits (MCC+MNC), e.g. 44010' },
  { param: 'client-reference', field: 'ref', maxLength: 100, pattern: /^[^\p{Cc}]+$/u, hint: 'up to 100 characters, no control characters' },
  { param: 'da', field: 'to_address', maxLength: 16, pattern: /^\+?\d{6,15}$/, hint: 'a phone number of 6 to 15 digits in international form, e.g. 819012345678' },
  { param: 'oa', field: 'from_address', maxLength: 20, pattern: /^[\p{L}\p{N} ._+-]+$/u, hint: 'a sender ID of up to 20 letters, digits, spaces or ".", "_", "+", "-"' },
  { param: 'status', field: 'delivery_status', maxLength: 7, pattern: new RegExp(`^(${DELIVERY_STATUS_VALUES.join('|')})$`), hint: `one of ${DELIVERY_STATUS_VALUES.join(', ')}`, options: DELIVERY_STATUS_VALUES },
  { param: 'enterprise-id', field: 'enterprise_id', maxLength: 64, pattern: /^[A-Za-z0-9._-]+$/, hint: 'letters, digits, ".", "_" or "-", up to 64' },
];

export type FilterParam = FilterDef['param'];
export type Filters = Partial<Record<FilterParam, string>>;

export function filterLabel(def: FilterDef): string {
  return FIELD_BY_KEY.get(def.field)?.label ?? def.param;
}

/** Says what is wrong with a filter value, or null when it is fine ("" means "no filter"). */
export function filterProblem(def: FilterDef, value: string): string | null {
  if (value === '') return null;
  if (value.length > def.maxLength) return `${filterLabel(def)} is too long: at most ${def.maxLength} characters.`;
  if (!def.pattern.test(value)) return `${filterLabel(def)} must be ${def.hint}.`;
  return null;
}
