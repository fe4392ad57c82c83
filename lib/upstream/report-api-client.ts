import 'server-only';
/**
 * The typed client of the upstream Report API: the token endpoint (notes.md), the MT transaction
 * query (seed §4.1) and the per-transaction detail (seed §4.2). It knows HTTP and shapes, nothing
 * about quotas: every call must reach it through the governor.
 */
import { Buffer } from 'node:buffer';
import { detailSchema, resultPageSchema, type Cdr, type ResultPage } from '../cdr/schema';
import { UpstreamError } from './errors';
import { getJson, type HttpContext } from './http';
import { nodeTransport, type Transport } from './node-transport';
import { detailSearch, wireSearch, type UpstreamRequest } from '../query/wire';
import { DOCUMENTED_TOKEN_LIFETIME_MS, parseTokenValidUntil, tokenResponseSchema } from './token-response';

export const DEFAULT_TIMEOUT_MS = 20_000;

export const TOKEN_PATH = '/auth/v1/token';
export const QUERY_PATH = '/cdr/v1/report/query/sms/transaction-history/mt';
export const DETAIL_PATH = '/cdr/v1/report/cdr/sms/transaction-history/mt';

export interface UpstreamClientOptions {
  baseUrl: string;
  /** Per call, connection to last byte of the body. Default 20000. */
  timeoutMs?: number;
  /** The largest answer read, as sent and decompressed (UPSTREAM_MAX_BODY_BYTES); unbounded when unset. */
  maxBodyBytes?: number;
  /** How a GET is sent (default: ./node-transport.ts); unit tests pass a fake `fetch`. */
  transport?: Transport;
  userAgent?: string;
  /** Clock for Retry-After dates and the fallback token lifetime (tests). */
  now?: () => number;
}

export interface UpstreamToken {
  token: string;
  validUntil: Date;
  accountId: string;
  product?: string;
}

export interface UpstreamClient {
  getToken(apiKey: string, secret: string, signal?: AbortSignal): Promise<UpstreamToken>;
  queryTransactions(token: string, req: UpstreamRequest, signal?: AbortSignal): Promise<ResultPage>;
  getTransaction(
    token: string,
    trxId: string,
    opts?: { tz?: 'UTC' | 'JST'; enterpriseId?: string },
    signal?: AbortSignal,
  ): Promise<Cdr>;
}

/**
 * Accepts `https://host`, `https://host/`, `https://host/prefix/`: the endpoint paths are appended
 * to whatever path the base has. A query string or fragment on the base is dropped; user:password
 * in it is refused (a request would carry it as a header, and it would be a credential in configuration).
 */
function baseOf(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    throw new TypeError('Upstream base URL is not a valid absolute URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError('Upstream base URL must be http or https.');
  if (url.username || url.password) throw new TypeError('Upstream base URL must not carry a user name or password.');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

export function createUpstreamClient(opts: UpstreamClientOptions): UpstreamClient {
  const base = baseOf(opts.baseUrl);
  const ctx: HttpContext = {
    transport: opts.transport ?? nodeTransport,
    timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    now: opts.now ?? Date.now,
    ...(opts.maxBodyBytes !== undefined ? { maxBodyBytes: opts.maxBodyBytes } : {}),
  };
  const extra: Record<string, string> = opts.userAgent ? { 'User-Agent': opts.userAgent } : {};

  /** The headers of the sample request, exactly; there is no body despite the Content-Type. */
  const bearer = (token: string): Record<string, string> => ({
    Authorization: `Bearer ${token}`,
    Accept: 'application/json',
    'Content-Type': 'application/json; charset=UTF-8',
    ...extra,
  });

  const requireToken = (token: string) => {
    if (!token) throw new UpstreamError('unauthorized', 'No upstream token: not sent.');
    // A header with such a character is refused by the request, with a message that may quote it, i.e. the token.
    if (!/^[\x21-\x7e]+$/.test(token))
      throw new UpstreamError('unauthorized', 'The upstream token has characters a header cannot carry: not sent.');
  };

  return {
    async getToken(apiKey, secret, signal) {
      if (!apiKey || !secret)
        throw new UpstreamError('unauthorized', 'API key and secret are both required: not sent.');
      // RFC 7617: the user-id ends at the first colon, so such a key could never authenticate.
      if (apiKey.includes(':')) throw new UpstreamError('bad_request', 'An API key cannot contain ":": not sent.');
      const pair = `${apiKey}:${secret}`;
      const basic = Buffer.from(pair, 'utf8').toString('base64');
      const body = await getJson(ctx, {
        url: `${base}${TOKEN_PATH}`,
        headers: { Authorization: `Basic ${basic}`, Accept: 'application/json', ...extra },
        schema: tokenResponseSchema,
        signal,
        secrets: [secret, basic, pair],
      });
      // When token_valid_until is missing or unreadable, the documented lifetime (15 minutes from
      // now) is assumed; if the token dies sooner, the 401 that follows makes the keeper renew it.
      const until = parseTokenValidUntil(body.token_valid_until) ?? ctx.now() + DOCUMENTED_TOKEN_LIFETIME_MS;
      const token: UpstreamToken = {
        token: body.jwt_token,
        validUntil: new Date(until),
        // The docs say account_id is the API key; fall back to it when absent.
        accountId:
          body.account?.account_id !== undefined && body.account.account_id !== ''
            ? String(body.account.account_id)
            : apiKey,
      };
      if (body.account?.product !== undefined && body.account.product !== '')
        token.product = String(body.account.product);
      return token;
    },

    async queryTransactions(token, req, signal) {
      requireToken(token);
      let search: string;
      try {
        search = wireSearch(req);
      } catch (err) {
        throw new UpstreamError('bad_request', `Query not sent: ${err instanceof Error ? err.message : String(err)}.`);
      }
      return getJson(ctx, {
        url: `${base}${QUERY_PATH}?${search}`,
        headers: bearer(token),
        schema: resultPageSchema,
        signal,
        secrets: [token],
      });
    },

    async getTransaction(token, trxId, detailOpts = {}, signal) {
      requireToken(token);
      const id = trxId.trim();
      if (id === '') throw new UpstreamError('bad_request', 'Transaction id is empty: not sent.');
      const search = detailSearch(detailOpts);
      const url = `${base}${DETAIL_PATH}/${encodeURIComponent(id)}${search ? `?${search}` : ''}`;
      return getJson(ctx, { url, headers: bearer(token), schema: detailSchema, signal, secrets: [token] });
    },
  };
}
