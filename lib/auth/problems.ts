import 'server-only';
/**
 * The problems of sign-in and sessions: a request without a live session (401, and why its session
 * ended when every session of its key was ended at once), and a key whose secret the upstream refused.
 */
import { ProblemError, TYPE_BASE } from '../http/problem';
import type { ProblemSpec } from '../http/problem-types';
import { msg } from '../i18n/message';
import type { CredentialsRefusedError } from '../upstream/server';
import { CREDENTIALS_REFUSED_PROBLEM, type SessionsEndReason } from './api';

/** Why a team person's session ended, said on their next request (a page says the same: sign-in-errors.ts). */
const ENDED_DETAIL = {
  suspended: 'problems.sessionEnded.suspended',
  'role-removed': 'problems.sessionEnded.roleRemoved',
  'role-unconfirmed': 'problems.sessionEnded.roleUnconfirmed',
} as const;

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
        title: msg('problems.credentialsRefused.title'),
        status: 401,
        detail: msg('problems.credentialsRefused.sessionDetail'),
      },
      challenge,
    );
  }
  if (ended === 'suspended' || ended === 'role-removed' || ended === 'role-unconfirmed') {
    return new ProblemError(
      {
        type: `${TYPE_BASE}session-ended`,
        title: msg('problems.sessionEnded.title'),
        status: 401,
        detail: msg(ENDED_DETAIL[ended]),
      },
      challenge,
    );
  }
  return new ProblemError(
    {
      type: `${TYPE_BASE}unauthenticated`,
      title: msg('problems.unauthenticated.title'),
      status: 401,
      detail:
        ended === 'signed-out-everywhere'
          ? msg('problems.unauthenticated.signedOutEverywhere')
          : msg('problems.unauthenticated.detail'),
    },
    // A 401 names how to authenticate (RFC 9110 §11.6.1): a session, got at the sign-in page.
    challenge,
  );
}

export function credentialsRefusedProblem(err: CredentialsRefusedError): ProblemSpec {
  return {
    type: CREDENTIALS_REFUSED_PROBLEM,
    title: msg('problems.credentialsRefused.title'),
    status: 401,
    detail: msg('problems.credentialsRefused.detail', { apiKey: err.apiKey }),
  };
}
