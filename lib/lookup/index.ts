/**
 * What other features and the pages may use of lookup, safe in the browser. Everything else in this folder is its own.
 */
export { type TransactionDetail, type TransactionMeta } from './api';
export { decodedOrAsIs, normaliseTrxId, trxIdProblem } from './trx-id';
