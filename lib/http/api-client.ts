/**
 * The browser's one way to read the dashboard's API: JSON in, `application/problem+json` errors
 * turned into ApiError so every error state can say what happened and what to do.
 */
import type { Problem } from './problem-types';
import en from '../../messages/en/network.json';
import ja from '../../messages/ja/network.json';

/**
 * The words this module says itself (no server answered them), in the page's language: `<html
 * lang>` (app/layout.tsx), read when they are said. Two short sentences of the catalogue
 * (messages/<locale>/network.json), not a translator: they take no values.
 */
function own(): typeof en {
  return typeof document !== 'undefined' && document.documentElement.lang === 'ja' ? ja : en;
}

export class ApiError extends Error {
  readonly status: number;
  readonly problem: Problem;

  constructor(problem: Problem) {
    super(problem.detail ?? problem.title);
    this.name = 'ApiError';
    this.status = problem.status;
    this.problem = problem;
  }

  /** Seconds to wait before retrying (429/503), from the body or the Retry-After header. */
  get retryAfterSeconds(): number | undefined {
    return this.problem.retryAfterSeconds;
  }
}

/** Status 0 stands for "the request never got an answer" (network down, server gone). */
export const NO_ANSWER = 0;

function retryAfterHeader(value: string | null, nowMs: number): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - nowMs) / 1000));
}

/** Reads a failed response as a Problem, whatever its body (problem JSON, other JSON, text, HTML). */
export async function problemOf(response: Response, nowMs = Date.now()): Promise<Problem> {
  let body: unknown = undefined;
  const text = await response.text().catch(() => '');
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  const fromBody = body && typeof body === 'object' ? (body as Partial<Problem>) : {};
  const retryAfter = fromBody.retryAfterSeconds ?? retryAfterHeader(response.headers.get('Retry-After'), nowMs);
  return {
    type: typeof fromBody.type === 'string' ? fromBody.type : 'about:blank',
    title: typeof fromBody.title === 'string' ? fromBody.title : response.statusText || `HTTP ${response.status}`,
    status: response.status,
    ...(typeof fromBody.detail === 'string' ? { detail: fromBody.detail } : {}),
    ...(fromBody.errors && typeof fromBody.errors === 'object' ? { errors: fromBody.errors } : {}),
    ...(retryAfter !== undefined ? { retryAfterSeconds: retryAfter } : {}),
    ...(fromBody.limitedBy !== undefined ? { limitedBy: fromBody.limitedBy } : {}),
    ...(typeof fromBody.nextCallAt === 'string' ? { nextCallAt: fromBody.nextCallAt } : {}),
    ...(typeof fromBody.reason === 'string' ? { reason: fromBody.reason } : {}),
  };
}

export interface RequestOptions {
  /** A JSON body (POST, PUT), or a form (FormData: a file uploaded). */
  body?: unknown;
  signal?: AbortSignal;
}

/**
 * The one request of the browser to the dashboard's API: JSON in and out, cookies of this origin,
 * a failure as ApiError with the server's problem details (status 0 when nothing answered). A 204
 * answers null.
 */
export async function apiRequest<T>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  opts: RequestOptions = {},
): Promise<T> {
  let response: Response;
  // A form (a file uploaded) goes as multipart/form-data, its boundary written by the browser.
  const form = typeof FormData !== 'undefined' && opts.body instanceof FormData;
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: {
        Accept: 'application/json',
        ...(opts.body === undefined || form ? {} : { 'Content-Type': 'application/json' }),
      },
      body: opts.body === undefined ? undefined : form ? (opts.body as FormData) : JSON.stringify(opts.body),
      signal: opts.signal,
      // TanStack Query is the browser's cache. The HTTP cache would revalidate an answer (ETag) and
      // hand back its old body on a 304, with the quota and the source of the first answer.
      cache: 'no-store',
    });
  } catch (err) {
    if (opts.signal?.aborted) throw err;
    throw new ApiError({
      type: 'about:blank',
      title: own().noAnswer.title,
      status: NO_ANSWER,
      detail: own().noAnswer.detail,
    });
  }
  if (!response.ok) throw new ApiError(await problemOf(response));
  return (response.status === 204 ? null : await response.json()) as T;
}

export function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  return apiRequest<T>('GET', path, { signal });
}

/** "Title. Detail. What is wrong with each field." — an error as one sentence for a person. */
export function errorText(err: unknown): string {
  if (err instanceof ApiError) {
    const fields = err.problem.errors ? ` ${Object.values(err.problem.errors).join(' ')}` : '';
    return `${err.problem.title}. ${err.problem.detail ?? ''}${fields}`.trim();
  }
  return own().unknown;
}

/** When a 429 (or 503) says the next attempt can succeed, as an epoch ms. */
export function retryAt(error: ApiError, nowMs: number): number | null {
  const next = error.problem.nextCallAt ? Date.parse(error.problem.nextCallAt) : NaN;
  if (!Number.isNaN(next)) return Math.max(next, nowMs);
  const seconds = error.retryAfterSeconds;
  return seconds === undefined ? null : nowMs + seconds * 1000;
}
