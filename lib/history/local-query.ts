import 'server-only';
/**
 * A dashboard query as a search of the local history: every filter — the upstream's, which match
 * exactly as the upstream does, and those only a local copy can apply — as a condition on the
 * record's columns, and the order. The one place that knows which column a filter reads.
 */
import { FIELD_BY_KEY, type CdrFieldKey } from '../cdr/fields';
import { FREE_TEXT_PARAM, ID_TEXT_PARAM, LATENCY_PARAM, type FilterParam, type Filters } from '../query/filters';
import { UPSTREAM_SORT, type TransactionsQuery } from '../query/query';
import type { Condition, LocalSearch, RecordColumn, SortKey } from './store/history-search';
import { priceUnits } from '../cdr/record-columns';

type Mapped = (value: string) => Condition;

const eq =
  (column: RecordColumn): Mapped =>
  (value) => ({ column, op: '=', value });

/** Each filter's condition. `q` is not here: it is the search's text. */
const CONDITIONS: Record<Exclude<FilterParam, typeof FREE_TEXT_PARAM>, Mapped> = {
  da: eq('to_address'),
  'da-suffix': (value) => ({ column: 'to_rev', op: 'prefix', value: [...value].reverse().join('') }),
  oa: eq('from_address'),
  status: eq('status'),
  'delivery-method': eq('delivery_method'),
  parts: (value) => ({ column: 'parts', op: '=', value: Number(value) }),
  'price-min': (value) => ({ column: 'price_units', op: '>=', value: priceUnits(value) ?? 0 }),
  'price-max': (value) => ({ column: 'price_units', op: '<=', value: priceUnits(value) ?? 0 }),
  'client-reference': eq('ref'),
  'api-key': eq('api_key'),
  'api-key-name': eq('api_key_name'),
  'enterprise-id': eq('enterprise_id'),
  network: eq('network_code'),
  'dlr-error-code': eq('dlr_error_code'),
  [LATENCY_PARAM]: (value) => ({ column: 'latency_ms', op: '>=', value: Number(value) * 1000 }),
  // The three identifiers, as stored (the reference and sender as they came, the trx_id in lower case).
  [ID_TEXT_PARAM]: (value) => ({ column: 'ref', op: 'contains', value, or: ['from_address', 'trx_id'] }),
};

/** Fields with a column of their own; any other field is ordered by its value in the record. */
const SORT_COLUMNS: Partial<Record<CdrFieldKey, RecordColumn>> = {
  date_received: 'received_ms',
  trx_id: 'trx_id',
  to_address: 'to_address',
  from_address: 'from_address',
  delivery_status: 'status',
  network_code: 'network_code',
  network_name: 'network_name',
  api_key: 'api_key',
  api_key_name: 'api_key_name',
  ref: 'ref',
  enterprise_id: 'enterprise_id',
  delivery_method: 'delivery_method',
  dlr_error_code: 'dlr_error_code',
  how_many_message_parts: 'parts',
  price: 'price_units',
  price_currency: 'currency',
  date_submitted_to_mno: 'submitted_ms',
  date_delivered: 'delivered_ms',
};

export function sortKeyOf(field: CdrFieldKey): SortKey {
  const column = SORT_COLUMNS[field];
  if (column) return { column };
  return { field, numeric: FIELD_BY_KEY.get(field)?.kind === 'integer' };
}

export function conditionsOf(filters: Filters): { where: Condition[]; text?: string } {
  const where: Condition[] = [];
  let text: string | undefined;
  for (const [param, value] of Object.entries(filters) as [FilterParam, string | undefined][]) {
    if (!value) continue;
    if (param === FREE_TEXT_PARAM) text = value;
    else where.push(CONDITIONS[param](value));
  }
  return text === undefined ? { where } : { where, text };
}

/** The query's search over `ranges` of the scope's copy. */
export function localSearchOf(
  scope: string,
  query: Pick<TransactionsQuery, 'filters' | 'sort' | 'sortOrder'>,
  ranges: readonly { from: number; to: number }[],
): LocalSearch {
  return {
    scope,
    ranges,
    ...conditionsOf(query.filters),
    ...(query.sort !== UPSTREAM_SORT ? { sort: sortKeyOf(query.sort) } : {}),
    order: query.sortOrder,
  };
}
