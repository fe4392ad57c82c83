import 'server-only';
/**
 * The problems of team mode: a request a person's role does not allow (403, naming the role it
 * needs), a reveal past the hourly limit (429), and the team account's secret refused upstream (an
 * admin's to replace, not the person's).
 */
import { ProblemError, TYPE_BASE } from '../http/problem';
import { REVEAL_LIMIT_PROBLEM, ROLE_NEEDED_PROBLEM, TEAM_SECRET_REFUSED_PROBLEM, type Role } from './api';
import { formatDuration } from '../i18n/format';

/** What each role is called on screen (the glossary's words are the Japanese catalogue's). */
export const ROLE_NAMES: Record<Role, string> = { admin: 'admin', support: 'support', viewer: 'viewer' };

export function roleNeeded(needed: Role, yours: Role, what: string): ProblemError {
  const roles = needed === 'admin' ? 'the admin role' : `the ${ROLE_NAMES[needed]} or admin role`;
  return new ProblemError({
    type: ROLE_NEEDED_PROBLEM,
    title: `This needs ${roles}`,
    status: 403,
    detail: `${what} needs ${roles}; you are signed in as ${ROLE_NAMES[yours]}. Your role comes from your groups at the identity provider: ask whoever manages them.`,
    neededRole: needed,
    yourRole: yours,
  });
}

export function revealLimitReached(limit: number, retryAfterMs: number): ProblemError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new ProblemError(
    {
      type: REVEAL_LIMIT_PROBLEM,
      title: 'Too many reveals this hour',
      status: 429,
      detail: `You may reveal ${limit} records an hour and have revealed ${limit} in the last hour. The next one can be revealed in ${formatDuration(seconds * 1000)}.`,
      retryAfterSeconds: seconds,
    },
    { 'Retry-After': String(seconds) },
  );
}

export function teamSecretRefused(account: string): ProblemError {
  return new ProblemError({
    type: TEAM_SECRET_REFUSED_PROBLEM,
    title: 'The Report API no longer accepts the team account\u2019s secret',
    status: 502,
    detail: `When the access token was renewed, the Report API refused the secret this dashboard holds for the team account ${account}: it was probably changed there. An admin must enter the current one (Admin \u2192 Accounts); nothing else needs to be done, and nobody was signed out.`,
  });
}

export function reasonProblem(min: number, max: number, length: number): ProblemError {
  return new ProblemError({
    type: `${TYPE_BASE}invalid-query`,
    title: 'The request has invalid parameters',
    status: 400,
    detail: 'Fix reason and try again. Nothing was revealed.',
    errors: {
      reason:
        length < min
          ? `Say why you need the full number and text, in at least ${min} characters (the reason is kept on the audit log).`
          : `A reason has at most ${max} characters.`,
    },
  });
}
