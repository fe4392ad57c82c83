import 'server-only';
/**
 * What other features and the composition root may use of reconcile on the server. Everything else in this folder is its own.
 */
export { createReconcileJobStore, type ReconcileJobStore } from './job-store';
export { UPLOAD_LIMIT_BYTES } from './reconcile-request';
export { ReconcileService, type ReconcileAccount } from './reconcile-service';
export { fileQueryOf, reconcileRequestOf, rowsQueryOf } from './route-readers';
export { type FileQuery, type RowsQuery } from './rows-query';
export { ReconcileRunner } from './runner';
