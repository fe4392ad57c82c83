import 'server-only';
/**
 * The problems of sign-in and sessions: a request without a live session (401, and why its session
 * ended when every session of its key was ended at once), and a key whose secret the upstream refused.
 */
import { ProblemError, TYPE_BASE } from '../http/problem';
import type { Problem } from '../http/problem-types';
import type { CredentialsRefusedError } from '../upstream/server';
import { CREDENTIALS_REFUSED_PROBLEM, type SessionsEndReason } from './api';

/** Why a team person's session ended, said on their next request (a page says the same: sign-in-errors.ts). */
const ENDED_DETAIL = {
  suspended:
    'An admin of this dashboard suspended your access; every session of yours has ended. Ask them to restore it.',
  'role-removed':
    'The identity provider no longer puts you in a group that may use this dashboard; every session of yours has ended.',
  'role-unconfirmed':
    'Your role could not be read again from the identity provider (your sign-in there ended). Sign in again at /signin.',
} as const;

const CREDENTIALS_REFUSED_TITLE = 'The Report API no longer accepts this API key\u2019s secret';

/**
 * The 401 of a request without a live session. `ended`: why its session ended when every session
 * of its API key was ended at once (lib/auth/end-sessions.ts), said to each of them.
 */
export function unauthenticated(ended: SessionsEndReason | null = null): ProblemError {
  const challenge = { 'WWW-Authenticate': 'Session realm="SMS history dashboard", sign-in="/signin"' };
  if (ended === 'credentials-refused') {
    return new ProblemError(
      {
        type: CREDENTIALS_REFUSED_PROBLEM,
        title: CREDENTIALS_REFUSED_TITLE,
        status: 401,
        detail:
          'When the access token was renewed, the Report API refused the secret this session was signed in with: it was probably changed. Every session of this API key signed in with it has been signed out; sign in again with the current secret.',
      },
      challenge,
    );
  }
  if (ended === 'suspended' || ended === 'role-removed' || ended === 'role-unconfirmed') {
    return new ProblemError(
      { type: `${TYPE_BASE}session-ended`, title: 'Your session was ended', status: 401, detail: ENDED_DETAIL[ended] },
      challenge,
    );
  }
  return new ProblemError(
    {
      type: `${TYPE_BASE}unauthenticated`,
      title: 'Sign in first',
      status: 401,
      detail:
        ended === 'signed-out-everywhere'
          ? 'Every session of this API key was signed out ("sign out everywhere"). Sign in again at /signin with your Report API key and secret.'
          : 'This needs a signed-in session: sign in at /signin.',
    },
    // A 401 names how to authenticate (RFC 9110 §11.6.1): a session, got at the sign-in page.
    challenge,
  );
}

export function credentialsRefusedProblem(err: CredentialsRefusedError): Problem {
  return {
    type: CREDENTIALS_REFUSED_PROBLEM,
    title: CREDENTIALS_REFUSED_TITLE,
    status: 401,
    detail: `It refused the secret this dashboard held for ${err.apiKey} when the access token was renewed: the secret was probably changed. Every session of ${err.apiKey} here has been signed out; sign in again with the current secret.`,
  };
}
