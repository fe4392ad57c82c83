/**
 * What other features and the pages may use of auth, safe in the browser. Everything else in this folder is its own.
 */
export { CREDENTIALS_REFUSED_PROBLEM, type SessionsEndReason } from './api';
export { signInProblems, type SignInInput } from './credentials';
export { signInError, signInErrorCode, type SignInErrorCode } from './sign-in-errors';
