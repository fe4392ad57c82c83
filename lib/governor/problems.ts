import 'server-only';
/** The 429 of a request whose turn did not come in time: whose calls are used, and when the next can go. */
import { retryAfterSeconds, TYPE_BASE } from '../http/problem';
import type { Problem } from '../http/problem-types';
import type { QuotaExceededError } from './quota-errors';

export function quotaProblem(err: QuotaExceededError): { problem: Problem; headers: Record<string, string> } {
  const seconds = retryAfterSeconds(err.retryAfterMs);
  return {
    problem: {
      type: `${TYPE_BASE}quota`,
      title: 'Waiting for the upstream\u2019s next free call',
      status: 429,
      detail: err.message,
      retryAfterSeconds: seconds,
      limitedBy: err.limitedBy,
      limitScope: err.scope,
      nextCallAt: new Date(err.nextCallAt).toISOString(),
      reason: err.reason,
    },
    headers: { 'Retry-After': String(seconds) },
  };
}
