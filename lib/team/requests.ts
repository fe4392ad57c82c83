import 'server-only';
/**
 * What team mode's routes are asked, read before their handlers run (each route's `query` reader,
 * lib/root/with-account.ts): the body read under a byte limit, each wrong field named with what it
 * should be, so a handler and the service behind it receive only checked input. Their words are the
 * catalogue's (messages/<locale>/team.json `problems`), so a reader here answers the 400 itself
 * (badRequest, said in the request's language) rather than as a codec's plain-text field errors.
 */
import { signInProblems } from '../auth';
import { readJsonBody } from '../http/body-limit';
import { badRequest } from '../http/problem';
import { isLocale, LOCALES, type Locale } from '../i18n/locales';
import { msg, type Words } from '../i18n/message';
import { lookupRequest, type LookupRequest } from '../lookup/server';
import { EXPORT_MAX_RANGE_DAYS, parseQuery, queryBody, type ParseResult, type QueryBody } from '../query/query';
import { parseAuditRequest, type AuditRequest } from './audit-request';

/** A JSON body's object (null for anything else) and one of its text fields ('' when not text). */
async function bodyOf(req: Request, maxBytes: number, hint: string, example: string) {
  const body = await readJsonBody(req, maxBytes, hint, example);
  const record = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const text = (name: string) => (typeof record[name] === 'string' ? (record[name] as string) : '');
  return { record, text };
}

/** The request read: a 400 naming each wrong field when there is one, else what the handler receives. */
function result<Q>(errors: Record<string, Words>, query: () => Q): ParseResult<Q> {
  if (Object.keys(errors).length > 0) throw badRequest(errors);
  return { ok: true, query: query() };
}

export interface NewTeamAccount {
  label: string;
  apiKey: string;
  enterpriseId: string | null;
  secret: string;
}

/** POST /api/team/accounts: a key, a secret, an optional enterprise and label, by the sign-in form's rules. */
export async function newAccountRequest(req: Request): Promise<ParseResult<NewTeamAccount>> {
  const { text } = await bodyOf(
    req,
    4 * 1024,
    'Send apiKey, secret and the optional enterpriseId and label, as JSON.',
    '{"apiKey": "ops-key", "secret": "…", "enterpriseId": "ent-1", "label": "Operations"}',
  );
  const input = { apiKey: text('apiKey').trim(), apiSecret: text('secret'), enterpriseId: text('enterpriseId').trim() };
  // The sign-in form's rules for a key, a secret and an enterprise: one rule for what each one is.
  const { apiSecret, ...problems } = signInProblems(input);
  const errors: Record<string, Words> = { ...problems };
  if (apiSecret) errors.secret = apiSecret;
  if (text('label').length > 80) errors.label = msg('team.problems.labelTooLong');
  return result(errors, () => ({
    label: text('label').trim(),
    apiKey: input.apiKey,
    enterpriseId: input.enterpriseId || null,
    secret: input.apiSecret,
  }));
}

/** PUT /api/team/accounts/<id>: the account's new secret, by the sign-in form's rule for one. */
export async function newSecretRequest(req: Request): Promise<ParseResult<{ secret: string }>> {
  const { text } = await bodyOf(req, 2 * 1024, 'Send only secret, as JSON.', '{"secret": "…"}');
  const secret = text('secret');
  const problem = signInProblems({ apiKey: 'x', apiSecret: secret, enterpriseId: '' }).apiSecret;
  return result(problem ? { secret: problem } : {}, () => ({ secret }));
}

/** PUT /api/team/people/<id>: suspend (true) or restore (false). */
export async function suspensionRequest(req: Request): Promise<ParseResult<{ suspended: boolean }>> {
  const { record } = await bodyOf(req, 1024, 'Send only suspended, as JSON.', '{"suspended": true}');
  const suspended = record.suspended;
  return result(typeof suspended === 'boolean' ? {} : { suspended: msg('team.problems.suspendedBoolean') }, () => ({
    suspended: suspended as boolean,
  }));
}

/** PUT /api/team/session: what a team person changes of their own — the team account to work on, their language. */
export interface SessionChange {
  account?: string;
  locale?: Locale;
}

/**
 * PUT /api/team/session: `account` (a team account's id) and/or `locale` (one of LOCALES, kept
 * with the person's profile); a personal session has only its own account, and keeps its language
 * in the browser's cookie.
 */
export async function sessionChangeRequest(
  req: Request,
  account: { team?: unknown },
): Promise<ParseResult<SessionChange>> {
  const { record, text } = await bodyOf(
    req,
    1024,
    'Send account and/or locale, as JSON.',
    '{"account": "env"} or {"locale": "en"}',
  );
  const hasLocale = record.locale !== undefined;
  if (!account.team)
    return result(
      hasLocale ? { locale: msg('team.problems.personalLocale') } : { account: msg('team.problems.personalAccount') },
      () => ({}),
    );
  const errors: Record<string, Words> = {};
  if (hasLocale && !isLocale(record.locale))
    errors.locale = msg('team.problems.localeValue', { locales: LOCALES.join(', ') });
  if ((record.account !== undefined || !hasLocale) && !text('account')) errors.account = msg('team.problems.accountId');
  return result(errors, () => ({
    ...(text('account') ? { account: text('account') } : {}),
    ...(hasLocale ? { locale: record.locale as Locale } : {}),
  }));
}

export interface RevealRequest extends LookupRequest {
  /** Checked by the service, which owns the rule (at least REVEAL_REASON_MIN characters). */
  reason: unknown;
}

/** POST /api/transactions/<trx_id>/reveal: the record's id and `tz` as its lookup reads them, and the reason. */
export async function revealRequest(
  req: Request,
  account: unknown,
  services: unknown,
  context: { params: Promise<{ trxId: string }> },
): Promise<ParseResult<RevealRequest>> {
  const looked = await lookupRequest(req, account, services, context);
  if (!looked.ok) return looked;
  const { record } = await bodyOf(
    req,
    4 * 1024,
    'Send only the reason, as JSON.',
    '{"reason": "Customer called about order ORD-1234"}',
  );
  return { ok: true, query: { ...looked.query, reason: record.reason } };
}

/** POST /api/audit/page-csv: the page's query in its body form (as POST /api/exports takes it) and the rows written. */
export async function pageCsvRequest(req: Request): Promise<ParseResult<{ query: QueryBody; rows: number }>> {
  const { record } = await bodyOf(
    req,
    8 * 1024,
    'Send only query (the page’s query, as POST /api/exports takes it) and rows, as JSON.',
    '{"query": {"date-from": "2026-11-01 00:00:00", "date-to": "2026-11-02 00:00:00", "tz": "UTC"}, "rows": 25}',
  );
  const errors: Record<string, Words> = {};
  // A page's query reaches as far as an export's (the local history answers beyond the search's 31 days).
  const parsed =
    record.query && typeof record.query === 'object' && !Array.isArray(record.query)
      ? parseQuery(record.query as QueryBody, { maxRangeDays: EXPORT_MAX_RANGE_DAYS })
      : null;
  const rows = record.rows;
  const rowsOk = typeof rows === 'number' && Number.isInteger(rows) && rows >= 0;
  if (parsed?.ok && rowsOk) return { ok: true, query: { query: queryBody(parsed.query), rows } };
  if (!parsed?.ok) errors.query = msg('team.problems.pageCsvQuery');
  if (!rowsOk) errors.rows = msg('team.problems.pageCsvRows');
  throw badRequest(errors);
}

export interface AuditLogRequest {
  filters: AuditRequest;
  /** The filters as given, for the `next` link of the older entries. */
  params: URLSearchParams;
}

/** GET /api/audit: the audit log's filters (lib/team/audit-request.ts), not a search's query. */
export function auditLogRequest(req: Request): ParseResult<AuditLogRequest> {
  const params = new URL(req.url).searchParams;
  const parsed = parseAuditRequest(params);
  if (!parsed.ok) throw badRequest(parsed.errors);
  return { ok: true, query: { filters: parsed.request, params } };
}
