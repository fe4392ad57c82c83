import 'server-only';
/**
 * What other features and the composition root may use of auth on the server. Everything else in this folder is its own.
 */
export { authSecret } from './auth-secret';
export { endSessions } from './end-sessions';
export { fingerprint, logFingerprint } from './fingerprint';
export { authOptions } from './options';
export { credentialsRefusedProblem, unauthenticated } from './problems';
export { unseal } from './secret-box';
export { accountFromCookies, endedSessionReason, type SignedInAccount } from './session';
export { createSignInAttemptStore, type SignInAttemptStore } from './sign-in-attempt-store';
export { SignInThrottle, throttleRulesOf, type SignInAttempt } from './sign-in-throttle';
export { createVault, type VaultEntry, type VaultStore } from './vault';
