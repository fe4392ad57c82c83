import 'server-only';
/**
 * Maps anything a handler throws to the problem a client should see: each feature's errors by the
 * feature's own mapping, input a service refused (a domain error) as the 400 a parser's refusal is,
 * then the kernel's (a ProblemError, a store out of reach, a fault of ours).
 */
import { credentialsRefusedProblem } from '../auth/server';
import { InvalidInputError } from '../errors/invalid-input';
import { QuotaExceededError } from '../governor/server';
import { quotaProblem } from '../governor/server';
import { badRequest, kernelProblem } from '../http/problem';
import type { Problem } from '../http/problem-types';
import { CredentialsRefusedError, UpstreamError } from '../upstream/server';
import { upstreamProblem } from '../upstream/server';

export function toProblem(err: unknown): { problem: Problem; headers: Record<string, string> } {
  if (err instanceof QuotaExceededError) return quotaProblem(err);
  if (err instanceof CredentialsRefusedError) return { problem: credentialsRefusedProblem(err), headers: {} };
  if (err instanceof UpstreamError) return upstreamProblem(err);
  if (err instanceof InvalidInputError) return { problem: badRequest({ ...err.errors }).problem, headers: {} };
  return kernelProblem(err);
}
