import 'server-only';
/**
 * Maps anything a handler throws to the problem a client should see: each feature's errors by the
 * feature's own mapping, input a service refused (a domain error) as the 400 a parser's refusal is,
 * then the kernel's (a ProblemError, a store out of reach, a fault of ours). Said in `locale`, the
 * request's (lib/i18n/request-locale.ts).
 */
import { credentialsRefusedProblem } from '../auth/server';
import { InvalidInputError } from '../errors/invalid-input';
import { QuotaExceededError } from '../governor/server';
import { quotaProblem } from '../governor/server';
import { badRequest, kernelProblem, renderProblem } from '../http/problem';
import type { Problem, ProblemSpec } from '../http/problem-types';
import type { Locale } from '../i18n/locales';
import { CredentialsRefusedError, UpstreamError } from '../upstream/server';
import { upstreamProblem } from '../upstream/server';

export function toProblem(err: unknown, locale: Locale): { problem: Problem; headers: Record<string, string> } {
  const { problem, headers } = problemOf(err);
  return { problem: renderProblem(problem, locale), headers };
}

function problemOf(err: unknown): { problem: ProblemSpec; headers: Record<string, string> } {
  if (err instanceof QuotaExceededError) return quotaProblem(err);
  if (err instanceof CredentialsRefusedError) return { problem: credentialsRefusedProblem(err), headers: {} };
  if (err instanceof UpstreamError) return upstreamProblem(err);
  if (err instanceof InvalidInputError) return { problem: badRequest({ ...err.errors }).problem, headers: {} };
  return kernelProblem(err);
}
