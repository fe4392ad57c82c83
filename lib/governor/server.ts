import 'server-only';
/**
 * What other features and the composition root may use of governor on the server. Everything else in this folder is its own.
 */
export { configWarnings, upstreamLimits } from './configured-limits';
export { Governor } from './governor';
export { CallNotSentError, QuotaExceededError } from './quota-errors';
export { createLedger, type LedgerStore } from './ledger-store';
export { memoryBackend } from './memory-backend';
export { backgroundRate } from './decision';
export { postgresGovernorBackend } from './postgres-backend';
export { quotaProblem } from './problems';
