/**
 * Every filter of the dashboard's query, derived from the field list (lib/cdr/fields.ts) plus the
 * two that belong to no single field: `q` (free text) and `latency-min`. Labels, patterns, hints
 * and input kinds live on the definitions, so the server's validation, the filter form and the
 * simulator all read the same rules.
 */
import { CDR_FIELDS, type CdrFieldDef, type CdrFieldKey, type FilterSpec } from '../cdr/fields';
import { searchFolded } from '../cdr/typed-text';
import { msg, type Message } from '../i18n/message';

type SpecOf<F> = F extends { readonly filters: readonly (infer S)[] } ? S : never;
type FieldFilterParam =
  SpecOf<CdrFieldDef> extends infer S ? (S extends { readonly param: infer P extends string } ? P : never) : never;

/** The seed's own filters (§4.1): what the upstream can apply. */
export type UpstreamFilterParam =
  SpecOf<CdrFieldDef> extends infer S
    ? S extends { readonly source: 'upstream'; readonly param: infer P extends string }
      ? P
      : never
    : never;

export const FREE_TEXT_PARAM = 'q';
/**
 * Free text over the identifiers only — client reference, sender ID, trx_id — never over the
 * message or a number: what a role that sees those masked may search by (lib/team/query-rules.ts).
 */
export const ID_TEXT_PARAM = 'id-text';
export const LATENCY_PARAM = 'latency-min';

export type FilterParam = FieldFilterParam | typeof FREE_TEXT_PARAM | typeof ID_TEXT_PARAM | typeof LATENCY_PARAM;

export interface FilterDef extends FilterSpec {
  readonly param: FilterParam;
  /** The field the filter narrows; null for `q` (several fields) and `latency-min` (derived). */
  readonly field: CdrFieldKey | null;
  /** What the form calls it. */
  readonly label: string;
}

const FIELD_FILTERS: FilterDef[] = CDR_FIELDS.flatMap((f) =>
  ('filters' in f ? (f.filters as readonly FilterSpec[]) : []).map((spec) => ({
    ...spec,
    param: spec.param as FilterParam,
    field: f.key,
    label: spec.label ?? f.label,
  })),
);

const DERIVED_FILTERS: FilterDef[] = [
  {
    param: FREE_TEXT_PARAM,
    field: null,
    label: 'Text',
    source: 'local',
    match: 'suffix', // not used: `q` is matched as a substring of several fields (lib/history)
    maxLength: 100,
    pattern: /^[^\p{Cc}]{2,}$/u,
    checkedAs: searchFolded,
    hint: 'at least 2 characters of a message, reference, sender, number or transaction ID',
    input: 'text',
    placeholder: 'Any text, e.g. 配達 or 5678',
  },
  {
    param: ID_TEXT_PARAM,
    field: null,
    label: 'Reference, sender or ID contains',
    source: 'local',
    match: 'suffix', // not used: matched as a substring of three fields (lib/history/local-query.ts)
    maxLength: 100,
    pattern: /^[^\p{Cc}]{2,}$/u,
    checkedAs: searchFolded,
    hint: 'at least 2 characters of a client reference, sender ID or transaction ID',
    input: 'text',
    placeholder: 'e.g. ORD-2026 or SakuraMart',
  },
  {
    param: LATENCY_PARAM,
    field: null,
    label: 'Delivered after (s)',
    source: 'local',
    match: 'min',
    maxLength: 7,
    pattern: /^\d{1,7}$/,
    hint: 'a whole number of seconds from submission to delivery, e.g. 30',
    input: 'numeric',
    placeholder: 'Any',
  },
];

/** In the order the form and the canonical URL show them: the upstream's first, then the local ones. */
const TEXT_PARAMS: readonly string[] = [FREE_TEXT_PARAM, ID_TEXT_PARAM];

export const FILTERS: readonly FilterDef[] = [
  ...FIELD_FILTERS.filter((f) => f.source === 'upstream'),
  ...DERIVED_FILTERS.filter((f) => TEXT_PARAMS.includes(f.param)),
  ...FIELD_FILTERS.filter((f) => f.source === 'local'),
  ...DERIVED_FILTERS.filter((f) => !TEXT_PARAMS.includes(f.param)),
];

export const UPSTREAM_FILTERS: readonly FilterDef[] = FILTERS.filter((f) => f.source === 'upstream');
export const LOCAL_FILTERS: readonly FilterDef[] = FILTERS.filter((f) => f.source === 'local');

export type Filters = Partial<Record<FilterParam, string>>;

const BY_PARAM = new Map<string, FilterDef>(FILTERS.map((f) => [f.param, f]));

export function filterDef(param: FilterParam): FilterDef {
  return BY_PARAM.get(param) as FilterDef;
}

export function isFilterParam(name: string): name is FilterParam {
  return BY_PARAM.has(name);
}

/** What the form calls a filter, in the reader's language (messages/<locale>/fields.json). */
export function filterLabel(param: FilterParam): Message {
  return msg(`fields.filter.${param}.label`);
}

/** What a valid value of a filter looks like, in the reader's language. */
export function filterHint(param: FilterParam): Message {
  return msg(`fields.filter.${param}.hint`);
}

/** Says what is wrong with a filter value, or null when it is fine ("" means "no filter"). */
export function filterProblem(def: FilterDef, value: string): Message | null {
  if (value === '') return null;
  // What it must be, too: "DELIVERED" or "DELIVRD,UNDELIV" for a status is better answered with the statuses.
  if (value.length > def.maxLength)
    return msg('query.filterTooLong', {
      label: filterLabel(def.param),
      max: def.maxLength,
      hint: filterHint(def.param),
    });
  if (!def.pattern.test(def.checkedAs?.(value) ?? value))
    return msg('query.filterInvalid', { label: filterLabel(def.param), hint: filterHint(def.param) });
  return null;
}

/** The filter that keeps the records whose `field` equals a value (for "filter by this"), if any. */
export function exactFilterFor(
  field: CdrFieldKey,
  sources: readonly FilterDef['source'][] = ['upstream'],
): FilterDef | undefined {
  return FILTERS.find((f) => f.field === field && f.match === 'exact' && sources.includes(f.source));
}

/** The filters only the local history can apply (a query with any of them spends no upstream call). */
export function localFiltersIn(filters: Filters): FilterParam[] {
  return LOCAL_FILTERS.map((f) => f.param).filter((p) => filters[p] !== undefined && filters[p] !== '');
}
