import 'server-only';
/**
 * What other features and the composition root may use of auth on the server. Everything else in this folder is its own.
 */
export { authSecret } from './auth-secret';
export { endPersonSessions, endSessions } from './end-sessions';
export { fingerprint, logFingerprint } from './fingerprint';
export { authOptions, type AuthDeps, type TeamSignIn } from './options';
export {
  createOidcClient,
  displayName,
  IdentityProviderUnavailableError,
  oidcProvider,
  openTokens,
  sealTokens,
  type Claims,
  type IdpTokens,
  type OidcClient,
} from './oidc';
export { credentialsRefusedProblem, unauthenticated } from './problems';
export { seal, unseal } from './secret-box';
export { accountFromCookies, accountOfEntry, endedSessionReason, type SignedInAccount } from './session';
export { createSignInAttemptStore, type SignInAttemptStore } from './sign-in-attempt-store';
export { SignInThrottle, throttleRulesOf, type SignInAttempt } from './sign-in-throttle';
export { createVault, type TeamSession, type VaultEntry, type VaultStore } from './vault';
