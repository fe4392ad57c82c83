import 'server-only';
/** The problem a client sees when the upstream failed a query: what happened, and when to try again. */
import { retryAfterSeconds, TYPE_BASE } from '../http/problem';
import type { ProblemSpec } from '../http/problem-types';
import { msg } from '../i18n/message';
import { UPSTREAM_UNAUTHORIZED_PROBLEM } from './api';
import type { UpstreamError } from './errors';

export function upstreamProblem(err: UpstreamError): { problem: ProblemSpec; headers: Record<string, string> } {
  // What the upstream said, quoted as it came (its own language).
  const said = err.upstreamMessage ? msg('problems.upstream.said', { message: err.upstreamMessage }) : '';
  const wait = err.retryAfterMs !== undefined ? retryAfterSeconds(err.retryAfterMs) : undefined;
  switch (err.kind) {
    case 'bad_request':
      return {
        problem: {
          type: `${TYPE_BASE}upstream-rejected`,
          title: msg('problems.upstream.rejected.title'),
          status: 400,
          detail: msg('problems.upstream.rejected.detail', { said }),
        },
        headers: {},
      };
    case 'unauthorized':
      // Refused even with a token just renewed: the session here is fine, the upstream is not
      // taking this key's queries (for now, or for good).
      return {
        problem: {
          type: UPSTREAM_UNAUTHORIZED_PROBLEM,
          title: msg('problems.upstream.unauthorized.title'),
          status: 401,
          detail: msg('problems.upstream.unauthorized.detail', { said }),
        },
        headers: {},
      };
    case 'forbidden':
      return {
        problem: {
          type: `${TYPE_BASE}upstream-forbidden`,
          title: msg('problems.upstream.forbidden.title'),
          status: 403,
          detail: msg('problems.upstream.forbidden.detail', { said }),
        },
        headers: {},
      };
    case 'not_found':
      return {
        problem: {
          type: `${TYPE_BASE}not-found`,
          title: msg('problems.notFound.title'),
          status: 404,
          detail: msg('problems.upstream.notFound.detail', { said }),
        },
        headers: {},
      };
    case 'rate_limited': {
      const seconds = wait ?? 60;
      return {
        problem: {
          type: `${TYPE_BASE}quota`,
          title: msg('problems.upstream.rateLimited.title'),
          status: 429,
          detail: msg('problems.upstream.rateLimited.detail', { seconds: String(seconds) }),
          retryAfterSeconds: seconds,
          limitedBy: 'upstream',
          nextCallAt: new Date(Date.now() + seconds * 1000).toISOString(),
        },
        headers: { 'Retry-After': String(seconds) },
      };
    }
    case 'unavailable': {
      const seconds = wait ?? 30;
      return {
        problem: {
          type: `${TYPE_BASE}upstream-unavailable`,
          title: msg('problems.upstream.unavailable.title'),
          status: 503,
          detail: msg('problems.upstream.unavailable.detail', {
            status: err.status === undefined ? msg('problems.upstream.unavailable.noStatus') : String(err.status),
            seconds: String(seconds),
          }),
          retryAfterSeconds: seconds,
        },
        headers: { 'Retry-After': String(seconds) },
      };
    }
    case 'timeout':
      return {
        problem: {
          type: `${TYPE_BASE}upstream-timeout`,
          title: msg('problems.upstream.timeout.title'),
          status: 504,
          detail: msg('problems.upstream.timeout.detail'),
          retryAfterSeconds: 30,
        },
        headers: { 'Retry-After': '30' },
      };
    case 'malformed':
      if (err.maxBodyBytes !== undefined)
        return {
          problem: {
            type: `${TYPE_BASE}upstream-too-large`,
            title: msg('problems.upstream.tooLarge.title'),
            status: 502,
            // As a string: the byte count reads as the setting an operator writes, without separators.
            detail: msg('problems.upstream.tooLarge.detail', { maxBytes: String(err.maxBodyBytes) }),
          },
          headers: {},
        };
      return {
        problem: {
          type: `${TYPE_BASE}upstream-malformed`,
          title: msg('problems.upstream.malformed.title'),
          status: 502,
          detail: msg('problems.upstream.malformed.detail'),
          retryAfterSeconds: 30,
        },
        headers: { 'Retry-After': '30' },
      };
    case 'network':
    default:
      return {
        problem: {
          type: `${TYPE_BASE}upstream-unreachable`,
          title: msg('problems.upstream.unreachable.title'),
          status: 502,
          detail: msg('problems.upstream.unreachable.detail'),
          retryAfterSeconds: 30,
        },
        headers: { 'Retry-After': '30' },
      };
  }
}
