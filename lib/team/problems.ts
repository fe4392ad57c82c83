import 'server-only';
/**
 * The problems of team mode: a request a person's role does not allow (403, naming the role it
 * needs), a reveal past the hourly limit (429), a reason that is no reason (400), and the team
 * account's secret refused upstream (an admin's to replace, not the person's). Their words are the
 * catalogue's (messages/<locale>/team.json, `problems`), said in the request's language.
 */
import { ProblemError, TYPE_BASE } from '../http/problem';
import { msg, type Words } from '../i18n/message';
import { REVEAL_LIMIT_PROBLEM, ROLE_NEEDED_PROBLEM, TEAM_SECRET_REFUSED_PROBLEM, type Role } from './api';

const roleName = (role: Role) => msg(`team.roles.${role}`);

/** 403: `what` needs `needed` (or a higher role); the person has `yours`. */
export function roleNeeded(needed: Role, yours: Role, what: Words): ProblemError {
  return new ProblemError({
    type: ROLE_NEEDED_PROBLEM,
    title: msg('team.problems.roleNeeded.title', { needed: roleName(needed) }),
    status: 403,
    detail: msg('team.problems.roleNeeded.detail', { what, needed: roleName(needed), yours: roleName(yours) }),
    neededRole: needed,
    yourRole: yours,
  });
}

export function revealLimitReached(limit: number, retryAfterMs: number): ProblemError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new ProblemError(
    {
      type: REVEAL_LIMIT_PROBLEM,
      title: msg('team.problems.revealLimit.title'),
      status: 429,
      detail: msg('team.problems.revealLimit.detail', { limit, wait: { seconds } }),
      retryAfterSeconds: seconds,
    },
    { 'Retry-After': String(seconds) },
  );
}

export function teamSecretRefused(account: string): ProblemError {
  return new ProblemError({
    type: TEAM_SECRET_REFUSED_PROBLEM,
    title: msg('team.problems.teamSecretRefused.title'),
    status: 502,
    detail: msg('team.problems.teamSecretRefused.detail', { account }),
  });
}

export function reasonProblem(min: number, max: number, length: number): ProblemError {
  return new ProblemError({
    type: `${TYPE_BASE}invalid-query`,
    title: msg('problems.invalidQuery.title'),
    status: 400,
    detail: msg('team.problems.reason.detail'),
    errors: {
      reason:
        length < min ? msg('team.problems.reason.tooShort', { min }) : msg('team.problems.reason.tooLong', { max }),
    },
  });
}
