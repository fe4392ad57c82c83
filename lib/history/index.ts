/**
 * What other features and the pages may use of history, safe in the browser. Everything else in this folder is its own.
 */
export { type HistoryDay, type HistorySettingsInput, type HistoryState } from './api';
export { calendarMonths, dayTally, weekdayColumns, type CalendarDate, type WeekStart } from './calendar';
export { lastSettledDay, startOf } from './days';
export { heldByDay, merge, type Interval } from './held';
export { scopeOf, type HistoryScope } from './scope';
export { packPlan, utcDaysOf } from './store/pack-plan';
export {
  callsLeftText,
  completeAtText,
  dayLabel,
  dayStateWords,
  historyStateDetail,
  historyStateWord,
  keepsUpWithText,
  pageSizeText,
  peopleCallsText,
  recordsKeptText,
  recordsText,
  reserveText,
} from './words';
