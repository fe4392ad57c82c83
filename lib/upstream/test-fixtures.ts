import 'server-only';
/**
 * Shared by the unit tests of lib/upstream (not a test file itself): a fake fetch that records
 * what it was asked and answers from a script, and upstream-shaped bodies taken from the seed.
 */

export const SAMPLE_JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJkZW1vIiwiZXhwIjoxNzYwMDAwMDAwfQ.kT3mXq1Zr0bY8wS5nV2pL6cH9dF4gJ7aE1uO0iQ3xYw';

export interface RecordedCall {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
  signal: AbortSignal | undefined;
  redirect: string | undefined;
}

export type Answer = Response | ((call: RecordedCall) => Response | Promise<Response>);

/** A fetch that answers from `answers` in order (the last one repeats) and records every call. */
export function fakeFetch(...answers: Answer[]) {
  const calls: RecordedCall[] = [];
  const impl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((v, k) => {
      headers[k] = v;
    });
    const call: RecordedCall = {
      url: String(input),
      method: init?.method ?? 'GET',
      headers,
      body: init?.body,
      signal: init?.signal ?? undefined,
      redirect: init?.redirect,
    };
    calls.push(call);
    const answer = answers[Math.min(calls.length - 1, answers.length - 1)];
    if (!answer) throw new Error('fakeFetch: no answer scripted');
    return typeof answer === 'function' ? answer(call) : answer.clone();
  }) as typeof fetch;
  return { fetch: impl, calls };
}

export function json(body: unknown, init: ResponseInit = {}): Response {
  return new Response(typeof body === 'string' ? body : JSON.stringify(body), {
    status: 200,
    ...init,
    headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string> | undefined) },
  });
}

export function text(
  body: string,
  status: number,
  contentType = 'text/plain',
  headers: Record<string, string> = {},
): Response {
  return new Response(body, { status, headers: { 'content-type': contentType, ...headers } });
}

/** A CDR as the seed's sample shows it: every value a string, except how_many_message_parts. */
export function sampleCdr(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const trx = (overrides.trx_id as string | undefined) ?? '0a1b2c3d4e5f60718293a4b5c6d7e8f9';
  return {
    message_body: '',
    msg_encrypted: 'false',
    unencrypted_message_body: '',
    _links: { self: { href: `/cdr/v1/report/cdr/sms/transaction-history/mt/${trx}` } },
    type: 'MT',
    trx_id: trx,
    date_received: '2025-10-01T09:15:02.123+0000',
    date_submitted_to_mno: '2025-10-01T09:15:02.456+0000',
    api_key: 'demo',
    api_key_name: 'Demo key',
    enterprise_id: 'ent-sakura',
    entity_id: 'entity-1',
    submitted_by_user_id: 'u-1',
    submitted_by_user_name: 'Hanako',
    submitted_by_user_email: 'hanako@example.jp',
    submitted_by_admin_user_id: '',
    executed_by: 'API',
    ref: 'order-42',
    from_address: 'SAKURA',
    to_address: '819012345678',
    network_code: '44010',
    network_name: 'NTT docomo',
    message_length: '42',
    delivery_status: 'DELIVRD',
    date_delivered: '2025-10-01T09:15:04.000+0000',
    dlr_error_code: '000',
    dlr_reason: 'Delivered',
    delivery_method: 'API',
    price: '0.07500000',
    price_currency: 'JPY',
    dcs: '0',
    how_many_message_parts: 1,
    ...overrides,
  };
}

export function samplePage(cdrs: Record<string, unknown>[] = [sampleCdr()], overrides: Record<string, unknown> = {}) {
  const q = 'page-size=25&enterprise-id=ent-sakura&sort-order=none&date-from=2025-10-01+00%3A00%3A00&tz=';
  const path = '/cdr/v1/report/query/sms/transaction-history/mt';
  return {
    page_size: 25,
    page: 1,
    _links: {
      self: { href: `${path}?page=1&${q}` },
      next: { href: `${path}?page=2&${q}` },
      first: { href: `${path}?page=1&${q}` },
      last: { href: `${path}?page=4&${q}` },
    },
    _embedded: { total_found: 80, cdrs },
    ...overrides,
  };
}
