/**
 * Sign-in and sessions as the browser (and any script) sees them: the problem types and reasons a
 * page tells apart. Browser-safe.
 */
/**
 * The problem type of a 401 that ended every session of the key: the upstream refused its secret
 * at a token renewal. The page tells it apart from a plain "sign in first".
 */
export const CREDENTIALS_REFUSED_PROBLEM = '/problems/credentials-refused';

/** Why every session of an API key was ended at once (lib/auth/end-sessions.ts), said to each of them. */
export const SESSIONS_END_REASONS = ['signed-out-everywhere', 'credentials-refused'] as const;
export type SessionsEndReason = (typeof SESSIONS_END_REASONS)[number];
