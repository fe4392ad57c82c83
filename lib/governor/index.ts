/**
 * What other features and the pages may use of governor, safe in the browser. Everything else in this folder is its own.
 */
export { type QuotaSnapshot, type QuotaWindow } from './api';
export { type GovernorBackend } from './backend';
export { SIGN_IN_ACCOUNT, type CallClass } from './classes';
export { WINDOW_WORDS, bindingSharedWindows, quotaWaitUntil, tightestWindow } from './quota-words';
