/**
 * Sign-in and sessions as the browser (and any script) sees them: the problem types and reasons a
 * page tells apart. Browser-safe.
 */
/**
 * The problem type of a 401 that ended every session of the key: the upstream refused its secret
 * at a token renewal. The page tells it apart from a plain "sign in first".
 */
export const CREDENTIALS_REFUSED_PROBLEM = '/problems/credentials-refused';

/**
 * Why a session was ended on the server, said to it on its next request: every session of an API
 * key at once (lib/auth/end-sessions.ts), or a team person's (lib/team): an admin suspended them,
 * the identity provider no longer gives them a role, or their role could not be read again.
 */
export const SESSIONS_END_REASONS = [
  'signed-out-everywhere',
  'credentials-refused',
  'suspended',
  'role-removed',
  'role-unconfirmed',
] as const;
export type SessionsEndReason = (typeof SESSIONS_END_REASONS)[number];
