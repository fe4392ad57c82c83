import 'server-only';
/**
 * The one place that performs an upstream GET: timeout, abort, status classification, and the
 * text → JSON → zod pipeline. Every failure leaves here as an UpstreamError whose message names
 * the path and what went wrong, never a header, a token or the body (a caller abort leaves as the
 * caller's own abort reason, since nothing went wrong upstream).
 */
import type { z } from 'zod';
import { log, redactCredentialsInText } from '../log';
import { untilAborted } from './abort';
import { extractUpstreamMessage } from './error-body';
import { kindForStatus, UpstreamError } from './errors';
import { parseRetryAfter } from './retry-after';
import { BodyTooLargeError, type Transport, type TransportResponse } from './node-transport';

export interface HttpContext {
  /** Sends the GET: ./node-transport.ts in the server; a fake `fetch` (same shape) in unit tests. */
  transport: Transport;
  timeoutMs: number;
  now: () => number;
  /** The largest answer read, as sent and decompressed (UPSTREAM_MAX_BODY_BYTES); unbounded when unset (tests). */
  maxBodyBytes?: number;
}

export interface GetJsonRequest<S extends z.ZodType> {
  url: string;
  headers: Record<string, string>;
  schema: S;
  signal?: AbortSignal;
  /** Credential values to blank out of anything the upstream says back. */
  secrets: readonly string[];
}

export async function getJson<S extends z.ZodType>(ctx: HttpContext, req: GetJsonRequest<S>): Promise<z.output<S>> {
  const callerSignal = req.signal;
  if (callerSignal?.aborted) throw callerSignal.reason;
  const timeoutSignal = AbortSignal.timeout(ctx.timeoutMs);
  const signal = callerSignal ? AbortSignal.any([callerSignal, timeoutSignal]) : timeoutSignal;
  // The path only: the query string may hold a filter on a phone number.
  const label = `GET ${new URL(req.url).pathname}`;
  const started = ctx.now();

  const failed = (err: unknown, phase: 'connect' | 'body'): never => {
    if (callerSignal?.aborted) throw callerSignal.reason;
    if (timeoutSignal.aborted) {
      throw new UpstreamError('timeout', `${label}: no complete answer within ${ctx.timeoutMs} ms.`);
    }
    // No `cause`: some transports (fetch) attach the request, headers included, to their errors.
    const what =
      phase === 'connect' ? 'could not reach the upstream' : 'the connection broke while the answer was being read';
    throw new UpstreamError('network', `${label}: ${what} (${describeFailure(err, req.secrets)}).`);
  };

  let res: TransportResponse;
  try {
    // `manual`: a redirect is not followed, so the credential never travels to an address we were
    // not configured with. The upstream has no documented redirects.
    res = await untilAborted(
      ctx.transport(req.url, {
        method: 'GET',
        headers: req.headers,
        signal,
        redirect: 'manual',
        ...(ctx.maxBodyBytes !== undefined ? { maxBodyBytes: ctx.maxBodyBytes } : {}),
      }),
      signal,
    );
  } catch (err) {
    return failed(err, 'connect');
  }
  let text: string;
  try {
    text = await untilAborted(res.text(), signal);
  } catch (err) {
    // Too large to read: given up, whatever it held (a runaway or hostile answer must not fill memory).
    if (err instanceof BodyTooLargeError && res.status >= 200 && res.status <= 299)
      throw new UpstreamError(
        'malformed',
        `${label}: the answer (HTTP ${res.status}) is larger than ${err.maxBodyBytes} bytes (UPSTREAM_MAX_BODY_BYTES); it was not read.`,
        { status: res.status, maxBodyBytes: err.maxBodyBytes },
      );
    // An error answer whose body cannot be read is still that answer: its status (a 429's
    // Retry-After, a 401's renewal) decides what happens next, not the broken body.
    if (res.status >= 200 && res.status <= 299) return failed(err, 'body');
    if (callerSignal?.aborted || timeoutSignal.aborted) return failed(err, 'body');
    text = '';
  }
  log.debug('upstream.answer', { path: label, status: res.status, ms: ctx.now() - started, chars: text.length });

  if (res.status < 200 || res.status > 299) throw errorFromResponse(ctx, res, text, label, req.secrets);
  return parseBody(text, req.schema, label, res.status);
}

/** A short, safe reason for a transport failure: an error code (ECONNREFUSED), else a scrubbed message. */
function describeFailure(err: unknown, secrets: readonly string[]): string {
  const seen = new Set<unknown>();
  let e: unknown = err;
  while (e && typeof e === 'object' && !seen.has(e)) {
    seen.add(e);
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z0-9_]{2,40}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  if (err instanceof Error) {
    // A transport's own messages are generic ("fetch failed"), but one about an invalid header value
    // quotes the value: known secrets are blanked before anything else.
    let text = `${err.name}: ${err.message}`;
    for (const secret of secrets) if (secret) text = text.split(secret).join('[REDACTED]');
    return redactCredentialsInText(text).slice(0, 120);
  }
  return 'unknown error';
}

function errorFromResponse(
  ctx: HttpContext,
  res: TransportResponse,
  text: string,
  label: string,
  secrets: readonly string[],
): UpstreamError {
  const status = res.status;
  const kind = kindForStatus(status);
  const upstreamMessage = extractUpstreamMessage(text, res.headers.get('content-type'), secrets);
  const retryAfterMs = parseRetryAfter(res.headers.get('retry-after'), ctx.now());
  const reason = res.statusText ? ` ${redactCredentialsInText(res.statusText).slice(0, 60)}` : '';
  const note = status >= 300 && status <= 399 ? ' (a redirect, deliberately not followed)' : '';
  const message = `${label} answered ${status}${reason}${note}${upstreamMessage ? `: ${upstreamMessage}` : '.'}`;
  return new UpstreamError(kind, message, { status, retryAfterMs, upstreamMessage });
}

const MAX_ISSUES = 5;

function parseBody<S extends z.ZodType>(text: string, schema: S, label: string, status: number): z.output<S> {
  if (text.trim() === '')
    throw new UpstreamError('malformed', `${label}: the answer (HTTP ${status}) has an empty body.`, { status });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    // JSON.parse's own message quotes the body, so it is not passed on.
    const cut =
      err instanceof SyntaxError && /end of JSON|Unterminated|Expected/i.test(err.message) && /^\s*[[{]/.test(text);
    throw new UpstreamError(
      'malformed',
      `${label}: the answer is not valid JSON (${text.length} characters${cut ? ', ending mid-document: truncated?' : ''}).`,
      { status },
    );
  }
  const result = schema.safeParse(json);
  if (!result.success) {
    const issues = flattenIssues(result.error.issues, []);
    const shown = issues.slice(0, MAX_ISSUES).join('; ');
    const more = issues.length > MAX_ISSUES ? ` (+${issues.length - MAX_ISSUES} more)` : '';
    throw new UpstreamError('malformed', `${label}: the answer does not have the expected shape: ${shown}${more}.`, {
      status,
    });
  }
  return result.data;
}

type Issue = z.core.$ZodIssue;

/** "path: code (expected …)" per issue; a union's alternatives are listed each with its own paths. */
function flattenIssues(issues: readonly Issue[], prefix: PropertyKey[]): string[] {
  const out: string[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      for (const branch of issue.errors) out.push(...flattenIssues(branch, path));
      continue;
    }
    const where = path.length ? path.map(String).join('.') : '(root)';
    const expected = issue.code === 'invalid_type' ? `, expected ${issue.expected}` : '';
    out.push(`${where}: ${issue.code}${expected}`);
  }
  return [...new Set(out)];
}
