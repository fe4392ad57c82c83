import 'server-only';
/** The 429 of a request whose turn did not come in time: whose calls are used, and when the next can go. */
import { retryAfterSeconds, TYPE_BASE } from '../http/problem';
import type { ProblemSpec } from '../http/problem-types';
import { msg } from '../i18n/message';
import { limitMessage, limitReasonMessage } from './limit-words';
import type { QuotaExceededError } from './quota-errors';

export function quotaProblem(err: QuotaExceededError): { problem: ProblemSpec; headers: Record<string, string> } {
  const seconds = retryAfterSeconds(err.retryAfterMs);
  return {
    problem: {
      type: `${TYPE_BASE}quota`,
      title: msg('problems.quota.title'),
      status: 429,
      detail: limitMessage(err.limitedBy, err.retryAfterMs, err.scope, err.detail),
      retryAfterSeconds: seconds,
      limitedBy: err.limitedBy,
      limitScope: err.scope,
      nextCallAt: new Date(err.nextCallAt).toISOString(),
      reason: limitReasonMessage(err.limitedBy, err.scope, err.detail),
    },
    headers: { 'Retry-After': String(seconds) },
  };
}
