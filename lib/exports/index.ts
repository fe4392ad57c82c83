/**
 * What other features and the pages may use of exports, safe in the browser. Everything else in this folder is its own.
 */
export { isActiveExportState, type ExportEstimate, type ExportJob, type ExportQuery } from './api';
export { clock, etaText, progressPercent, progressText, queryText, sizeText, stateText } from './job-words';
