import 'server-only';
/**
 * What other features and the composition root may use of history on the server. Everything else in this folder is its own.
 */
export { HistoryIndex } from './history-index';
export { historyDayCounts, historyLagDays } from './history-figures';
export { HistoryService } from './history-service';
export { historySettingsOf, parseHistorySettings } from './settings-request';
export { localSearchOf } from './local-query';
export { ResultRecorder } from './result-recorder';
export { createDayPackStore, type DayPackStore } from './store/day-pack-store';
export { IdSet, packsServe, scanPack, type DayPack, type PackFilter, type PackTextColumn } from './store/day-pack';
export { type LocalSearch, type RecordReads, type ResolvedSearch } from './store/history-search';
export { createHistoryStore, type HistoryResult, type HistoryStore } from './store/history-store';
export {
  readLatencies,
  rollupsServe,
  splitByHours,
  type Facet,
  type Range,
  type RollupDimension,
} from './store/rollups';
export { threadBackend } from './store/writer-thread';
export { inlineTextLookup, sqliteTextIndex, threadTextLookup } from './store/text-thread';
export { createHistoryWriter, inlineBackend } from './store/writer';
export { createHistoryWrites } from './store/writes';
export { SyncRunner } from './sync-runner';
export { createPageSizeStore } from './store/page-size-store';
export {
  effectivePageSize,
  FALLBACK_PAGE_SIZE,
  PageSizes,
  SEARCH_PAGE_SIZE,
  searchPageSize,
  type PageSizeState,
} from './sync-page-size';
