import 'server-only';
/**
 * What other features and the composition root may use of exports on the server. Everything else in this folder is its own.
 */
export { exportJobCounts } from './export-figures';
export { ExportService } from './export-service';
export { exportRequestOf, type ExportRequest } from './export-request';
export { createExportFileStore, type ExportFileStore } from './file-store';
export { createExportJobStore, type ExportJobStore } from './job-store';
export { ExportRunner } from './runner';
export { retentionEnd } from './job-record';
export { estimateSaid, jobSaid } from './said';
