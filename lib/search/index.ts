/**
 * What other features and the pages may use of search, safe in the browser. Everything else in this folder is its own.
 */
export { type SearchPlan, type TransactionsMeta, type TransactionsPage, type UncoveredRange } from './api';
export {
  COLUMN_PREFS_STORAGE_KEY,
  defaultColumnPrefs,
  moveColumn,
  parseStoredColumnPrefs,
  toggleColumn,
  visibleInOrder,
  type ColumnPrefs,
} from './column-prefs';
export { holdNextView, takeHeldView } from './held-after-sign-in';
export { DEFAULT_PRESET, RANGE_PRESETS, presetRange } from './presets';
export {
  fromInputValue,
  latestEndFor,
  rangeSpan,
  rezoneWallClock,
  splitRange,
  toInputValue,
  type RangeProblems,
  type WallRange,
} from './range';
export { rezonePage } from './rezone-page';
export { activeFilters, checkDraft, draftOfQuery, emptyFilters, rezoneDraft, type SearchDraft } from './search-draft';
export { wholeRangeUncovered } from './uncovered';
export {
  ROW_PARAM,
  filterValuesOf,
  pageHoldingFirstRow,
  pageHref,
  queryOfApiHref,
  searchStateOf,
  settingsOf,
  urlValuesOf,
  zoneOf,
  type PageUrlValues,
  type SearchSettings,
  type SearchState,
} from './url-state';
export { planVerdict, type PlanVerdict } from './plan-verdict';
