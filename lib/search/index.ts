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
export { fromInputValue, latestEndFor, rangeSpan, splitRange, toInputValue, type RangeProblems } from './range';
export { pageInZone } from './page-in-zone';
export { wholeRangeUncovered } from './uncovered';
export { planVerdict, type PlanVerdict } from './plan-verdict';
