import 'server-only';
/**
 * What other features and the composition root may use of background on the server. Everything else in this folder is its own.
 */
export { ForegroundWork } from './foreground-work';
export { PaidPages, paidPages } from './paid-pages';
export { holdLease, leaseHolder } from './hold-lease';
export { createLeaseStore, type LeaseStore } from './lease-store';
export { SignInNeededError, backgroundAccount, type BackgroundJobOwner } from './job-account';
