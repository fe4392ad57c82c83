import 'server-only';
/**
 * How an upstream call ended, as the metrics count it (sms_upstream_calls_total{outcome}): the class
 * of the status the upstream answered — a 200 whose body was not what we expect is still a 2xx the
 * upstream answered — or, with no status, a timeout, a connection that failed, or the caller giving
 * up (a person went away, the server is stopping).
 */
import type { CallOutcome } from '../metrics/server';
import { UpstreamError } from './errors';

export function callOutcome(err: unknown): CallOutcome {
  if (!(err instanceof UpstreamError)) return 'aborted';
  const status = err.status;
  if (status === undefined) return err.kind === 'timeout' ? 'timeout' : 'network';
  if (status === 429) return '429';
  if (status >= 500) return '5xx';
  if (status >= 400) return '4xx';
  if (status >= 300) return '3xx';
  return '2xx';
}
