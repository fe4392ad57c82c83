/**
 * The upstream's three endpoints: the token, the MT transaction-history query and the per-record
 * detail. Query and detail share one pipeline — count the request, apply the limits, apply faults,
 * then check headers, token and parameters in the order a real gateway would (401, 406, 400, 403).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { findCredential, type Credential } from './accounts';
import type { SecretOverrides } from './secrets';
import { DETAIL_PATH_PREFIX as DETAIL_PREFIX } from './cdr';
import type { Dataset } from './dataset';
import type { FaultState, AppliedFaults } from './faults';
import { clientIp, errorBody, htmlErrorPage, isJsonUtf8, JSON_TYPE, mediaTypes, send, sendJson } from './http';
import type { RateLimiter } from './limits';
import { parseQueryParams, parseTz, type PageSizeLimit, type QueryParams } from './params';
import type { RequestKind, StatsRecorder } from './stats';
import { formatValidUntil, type TokenIssuer } from './tokens';

export const TOKEN_PATH = '/auth/v1/token';
export const QUERY_PATH = '/cdr/v1/report/query/sms/transaction-history/mt';
export { DETAIL_PREFIX };
export const PRODUCT = 'CPaaS Report API';

export interface ApiContext {
  dataset: Dataset;
  tokens: TokenIssuer;
  /** null: limits off. */
  limiter: RateLimiter | null;
  stats: StatsRecorder;
  faults: FaultState;
  now: () => number;
  /** The largest page-size served and what happens above it (changed at run time: setPageSizeLimit). */
  pageSize: PageSizeLimit;
  /** Added to every request. */
  latencyMs: number;
  /** Added to token requests only, on top of latencyMs: a real token endpoint is slow (~200 ms). */
  tokenLatencyMs: number;
  /** Secrets rotated at run time. */
  secrets: SecretOverrides;
}

/** An answer before faults and encoding are applied. */
interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

const error = (status: number, message: string, headers?: Record<string, string>): Answer => ({
  status,
  body: errorBody(status, message),
  headers,
});

function sleep(ms: number, res: ServerResponse): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    res.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

// ---- token ---------------------------------------------------------------------------------------

function basicCredentials(header: string | undefined): { apiKey: string; secret: string } | null {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!m) return null;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { apiKey: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

export async function handleToken(ctx: ApiContext, req: IncomingMessage, res: ServerResponse): Promise<number | null> {
  const basic = basicCredentials(req.headers.authorization);
  const credential = basic ? findCredential(basic.apiKey) : undefined;
  const finish = ctx.stats.tokenRequest(clientIp(req), basic?.apiKey ?? null, credential !== undefined);
  res.once('close', () => finish(null));
  await sleep(ctx.latencyMs + ctx.tokenLatencyMs, res);
  if (res.destroyed) return null;
  const answer = ((): Answer => {
    if (!mediaTypes(req.headers.accept).includes('application/json'))
      return error(406, 'Accept: must be application/json');
    if (!basic)
      return error(
        401,
        'Authorization: HTTP Basic credentials required (API key as user name, its secret as password)',
        { 'WWW-Authenticate': 'Basic realm="cpaas"' },
      );
    if (!credential || ctx.secrets.secretOf(credential) !== basic.secret)
      return error(401, 'unknown API key or wrong secret');
    const { token, claims } = ctx.tokens.issue(credential.apiKey);
    return {
      status: 200,
      body: {
        account: { account_id: credential.apiKey, product: PRODUCT },
        jwt_token: token,
        token_valid_until: formatValidUntil(claims.exp),
      },
    };
  })();
  sendJson(res, answer.status, answer.body, answer.headers);
  finish(answer.status);
  return answer.status;
}

// ---- query and detail ------------------------------------------------------------------------------

function bearer(header: string | undefined): string | null {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m ? m[1]! : null;
}

/** The caller, or the 401/406/400 that stops it. The same checks for query and detail. */
function authorise(
  ctx: ApiContext,
  req: IncomingMessage,
): { ok: true; credential: Credential } | { ok: false; answer: Answer } {
  const h = req.headers;
  const challenge = { 'WWW-Authenticate': 'Bearer' };
  if (h.authorization === undefined) {
    if (h.authentication !== undefined) {
      return {
        ok: false,
        answer: error(
          401,
          'Authorization: missing; the token goes in the Authorization header ("Authorization: Bearer <token>"), not Authentication',
          challenge,
        ),
      };
    }
    return {
      ok: false,
      answer: error(
        401,
        'Authorization: missing; send "Authorization: Bearer <token>" with a token from /auth/v1/token',
        challenge,
      ),
    };
  }
  const token = bearer(h.authorization);
  if (!token) return { ok: false, answer: error(401, 'Authorization: must be "Bearer <token>"', challenge) };
  const check = ctx.tokens.verify(token);
  if (!check.ok) return { ok: false, answer: error(401, `Authorization: ${check.reason}`, challenge) };
  const credential = findCredential(check.claims.sub);
  if (!credential)
    return { ok: false, answer: error(401, 'Authorization: the token names no known API key', challenge) };
  if (!mediaTypes(h.accept).includes('application/json'))
    return { ok: false, answer: error(406, 'Accept: must be application/json') };
  if (!isJsonUtf8(h['content-type']))
    return { ok: false, answer: error(400, 'Content-Type: must be application/json; charset=UTF-8') };
  return { ok: true, credential };
}

/**
 * The links of the result page reproduce the sample's quirk: they carry only page, page-size,
 * enterprise-id, sort-order=none, date-from and an empty tz. date-to, the filters, the sort and the
 * zone are dropped, so a client that follows them blindly gets a 400 (no date-to) — or, were it
 * lenient, other records.
 */
function link(page: number, q: QueryParams, enterpriseId: string): { href: string } {
  const sp = new URLSearchParams([
    ['page', String(page)],
    ['page-size', String(q.pageSize)],
    ['enterprise-id', enterpriseId],
    ['sort-order', 'none'],
    ['date-from', q.dateFrom],
    ['tz', ''],
  ]);
  return { href: `${QUERY_PATH}?${sp.toString()}` };
}

/**
 * The enterprise a call reads: the one asked for (enterprise-id), within the key's own when the key
 * belongs to one (another is refused, 403); null: every enterprise (a key of none, not narrowed).
 */
function enterpriseScope(
  credential: Credential,
  asked: string | null,
): { ok: true; enterpriseId: string | null } | { ok: false; answer: Answer } {
  if (credential.enterpriseId === null) return { ok: true, enterpriseId: asked };
  if (asked !== null && asked !== credential.enterpriseId) {
    return {
      ok: false,
      answer: error(403, `enterprise-id: API key "${credential.apiKey}" may not read enterprise "${asked}"`),
    };
  }
  return { ok: true, enterpriseId: credential.enterpriseId };
}

function answerQuery(ctx: ApiContext, url: URL, credential: Credential, now: number): Answer {
  const parsed = parseQueryParams(url.searchParams, ctx.pageSize);
  if (!parsed.ok) return error(400, parsed.message);
  const q = parsed.value;
  const scope = enterpriseScope(credential, q.enterpriseId);
  if (!scope.ok) return scope.answer;
  const enterpriseId = scope.enterpriseId;
  const result = ctx.dataset.query({
    from: q.from,
    to: q.to,
    now,
    enterpriseId,
    filters: q.filters,
    order: q.sortOrder === 'desc' ? 'desc' : 'asc',
    offset: (q.page - 1) * q.pageSize,
    limit: q.pageSize,
  });
  const last = Math.max(1, Math.ceil(result.total / q.pageSize));
  const linkEnterprise = enterpriseId ?? '';
  return {
    status: 200,
    body: {
      page_size: q.pageSize,
      page: q.page,
      _links: {
        self: link(q.page, q, linkEnterprise),
        ...(q.page < last ? { next: link(q.page + 1, q, linkEnterprise) } : {}),
        first: link(1, q, linkEnterprise),
        last: link(last, q, linkEnterprise),
      },
      _embedded: {
        total_found: result.total,
        cdrs: result.indices.map((i) => ctx.dataset.recordAt(i, q.tz, now)),
      },
    },
  };
}

function answerDetail(ctx: ApiContext, url: URL, credential: Credential, now: number): Answer {
  const tz = parseTz(url.searchParams);
  if (!tz.ok) return error(400, tz.message);
  const scope = enterpriseScope(credential, url.searchParams.get('enterprise-id') || null);
  if (!scope.ok) return scope.answer;
  const trxId = url.pathname.slice(DETAIL_PREFIX.length);
  const i = ctx.dataset.findByTrxId(trxId);
  // Not yet received and someone else's record look exactly like a record that does not exist.
  if (
    i === undefined ||
    !ctx.dataset.isVisible(i, now) ||
    (scope.enterpriseId !== null && ctx.dataset.enterpriseIdAt(i) !== scope.enterpriseId)
  ) {
    return error(404, `trx_id: no transaction ${trxId.slice(0, 64)}`);
  }
  return { status: 200, body: ctx.dataset.recordAt(i, tz.value, now) };
}

/** A result page with its records changed by `change` (total_found unchanged); any other body as it is. */
function withCdrs(body: unknown, change: (cdrs: unknown[]) => unknown[]): unknown {
  const embedded = (body as { _embedded?: { cdrs?: unknown } } | null)?._embedded;
  if (!embedded || !Array.isArray(embedded.cdrs)) return body;
  return { ...(body as object), _embedded: { ...embedded, cdrs: change(embedded.cdrs) } };
}

/** Sends an answer with the faults in force; returns the status sent. */
function deliver(res: ServerResponse, answer: Answer, faults: AppliedFaults | null): number {
  if (faults?.html && answer.status >= 400) {
    send(res, answer.status, htmlErrorPage(answer.status), 'text/html; charset=utf-8', answer.headers);
    return answer.status;
  }
  let body = answer.body;
  if (answer.status === 200 && faults?.shortBy)
    body = withCdrs(body, (cdrs) => cdrs.slice(0, Math.max(0, cdrs.length - faults.shortBy!)));
  if (answer.status === 200 && faults?.repeatFirst)
    body = withCdrs(body, (cdrs) => (cdrs.length > 1 ? [...cdrs.slice(0, -1), cdrs[0]] : cdrs));
  const json = JSON.stringify(body);
  if (faults?.malformed) {
    // What a misconfigured proxy sends: a 200 that claims to be JSON and is not.
    send(res, 200, '<html><body>OK</body></html>\n', JSON_TYPE);
    return 200;
  }
  if (faults?.truncated) {
    send(res, 200, json.slice(0, Math.max(1, Math.floor(json.length / 2))), JSON_TYPE);
    return 200;
  }
  send(res, answer.status, json, JSON_TYPE, answer.headers);
  return answer.status;
}

export async function handleApi(
  ctx: ApiContext,
  kind: RequestKind,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<number | null> {
  const ip = clientIp(req);
  // The account is whoever a genuine token names, even an expired one: that is who is calling.
  const token = bearer(req.headers.authorization);
  const check = token ? ctx.tokens.verify(token) : null;
  const account = check?.claims?.sub ?? null;

  const finish = ctx.stats.apiRequest(kind, ip, account);
  res.once('close', () => finish(null));

  let release = () => {};
  if (ctx.limiter) {
    const admission = ctx.limiter.admit({ ip, account });
    if (!admission.ok) {
      const r = admission.rejection;
      sendJson(res, 429, errorBody(429, r.message, { limit: r.limit, subject: r.subject }), {
        'Retry-After': String(r.retryAfterSeconds),
      });
      finish(429);
      return 429;
    }
    release = admission.release;
    res.once('close', release); // a hung or aborted request frees its slot when the socket closes
  }

  const faults = ctx.faults.take();
  await sleep(ctx.latencyMs + (faults?.latencyMs ?? 0), res);
  if (res.destroyed) return null;
  if (faults?.hang) return null; // the client gives up, the socket closes, 'close' releases the slot

  let answer: Answer;
  if (faults?.status) answer = error(faults.status, 'simulated upstream failure');
  else {
    const who = authorise(ctx, req);
    const now = ctx.now();
    if (!who.ok) answer = who.answer;
    else if (kind === 'query') answer = answerQuery(ctx, url, who.credential, now);
    else answer = answerDetail(ctx, url, who.credential, now);
  }
  // Free the slot before writing: a client may send its next request the moment it reads this one.
  release();
  const status = deliver(res, answer, faults);
  finish(status);
  return status;
}
