import 'server-only';
/** The problem a client sees when the upstream failed a query: what happened, and when to try again. */
import { retryAfterSeconds, TYPE_BASE } from '../http/problem';
import type { Problem } from '../http/problem-types';
import { UPSTREAM_UNAUTHORIZED_PROBLEM } from './api';
import type { UpstreamError } from './errors';

export function upstreamProblem(err: UpstreamError): { problem: Problem; headers: Record<string, string> } {
  const said = err.upstreamMessage ? ` The Report API said: \u201c${err.upstreamMessage}\u201d.` : '';
  const wait = err.retryAfterMs !== undefined ? retryAfterSeconds(err.retryAfterMs) : undefined;
  switch (err.kind) {
    case 'bad_request':
      return {
        problem: {
          type: `${TYPE_BASE}upstream-rejected`,
          title: 'The Report API rejected the query',
          status: 400,
          detail: `Change the query and try again.${said}`,
        },
        headers: {},
      };
    case 'unauthorized':
      // Refused even with a token just renewed: the session here is fine, the upstream is not
      // taking this key's queries (for now, or for good).
      return {
        problem: {
          type: UPSTREAM_UNAUTHORIZED_PROBLEM,
          title: 'The Report API refused the query',
          status: 401,
          detail: `It answered 401 even with a freshly renewed token. Try again in a moment; if it keeps happening, sign in again and check that the API key and secret are still valid.${said}`,
        },
        headers: {},
      };
    case 'forbidden':
      return {
        problem: {
          type: `${TYPE_BASE}upstream-forbidden`,
          title: 'Your account may not see this',
          status: 403,
          detail: `The Report API refused access (for example to another enterprise).${said}`,
        },
        headers: {},
      };
    case 'not_found':
      return {
        problem: {
          type: `${TYPE_BASE}not-found`,
          title: 'Not found',
          status: 404,
          detail: `The Report API has no such record for your account.${said}`,
        },
        headers: {},
      };
    case 'rate_limited': {
      const seconds = wait ?? 60;
      return {
        problem: {
          type: `${TYPE_BASE}quota`,
          title: 'The Report API asked us to slow down',
          status: 429,
          detail: `Your account's calls are held for ${seconds} s; the page retries by itself.`,
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
          title: 'The Report API is unavailable',
          status: 503,
          detail: `It answered with an error (${err.status ?? 'no status'}). Try again in ${seconds} s.`,
          retryAfterSeconds: seconds,
        },
        headers: { 'Retry-After': String(seconds) },
      };
    }
    case 'timeout':
      return {
        problem: {
          type: `${TYPE_BASE}upstream-timeout`,
          title: 'The Report API did not answer in time',
          status: 504,
          detail: 'Try again in a moment; a narrower range or more filters answer faster.',
          retryAfterSeconds: 30,
        },
        headers: { 'Retry-After': '30' },
      };
    case 'malformed':
      if (err.maxBodyBytes !== undefined)
        return {
          problem: {
            type: `${TYPE_BASE}upstream-too-large`,
            title: 'The Report API sent an answer larger than the dashboard reads',
            status: 502,
            detail: `Its answer went past ${err.maxBodyBytes} bytes (UPSTREAM_MAX_BODY_BYTES), so it was not read; a page of 100 records is about 100 KB. Try again later; if it keeps happening, tell the team running the dashboard.`,
          },
          headers: {},
        };
      return {
        problem: {
          type: `${TYPE_BASE}upstream-malformed`,
          title: 'The Report API sent an answer we could not read',
          status: 502,
          detail: 'Nothing was shown rather than a wrong page. Try again in a moment.',
          retryAfterSeconds: 30,
        },
        headers: { 'Retry-After': '30' },
      };
    case 'network':
    default:
      return {
        problem: {
          type: `${TYPE_BASE}upstream-unreachable`,
          title: 'The Report API cannot be reached',
          status: 502,
          detail: 'Check the connection to the upstream (UPSTREAM_BASE_URL) and try again.',
          retryAfterSeconds: 30,
        },
        headers: { 'Retry-After': '30' },
      };
  }
}
