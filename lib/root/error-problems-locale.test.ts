/**
 * Every problem the API answers is said in the request's language: the kernel's, sign-in's, the
 * upstream's and the governor's, thrown without knowing who asked and rendered by the route wrapper.
 * Only the words change: `type`, the status, the parameters' names and every machine-read member
 * stay as they are.
 */
import { describe, expect, it } from 'vitest';
import { NextRequest } from 'next/server';
import { unauthenticated } from '../auth/problems';
import { QuotaExceededError } from '../governor/quota-errors';
import { badRequest, crossSiteRefused, payloadTooLarge, ProblemError, renderProblem } from '../http/problem';
import { methodNotAllowed, headRefused } from '../http/methods';
import type { Problem } from '../http/problem-types';
import { msg } from '../i18n/message';
import { localeOfRequest } from '../i18n/request-locale';
import { CredentialsRefusedError, UpstreamError } from '../upstream/errors';
import { toProblem } from './error-problems';

const JAPANESE = /[\u3040-\u30ff\u4e00-\u9fff]/;

/** Each of the server's problems, as thrown. */
const thrown: Record<string, unknown> = {
  'store out of reach': Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
  'a fault of ours': new TypeError('bug'),
  'bad request': badRequest({ page: msg('problems.invalidQuery.title'), 'page-size': 'page-size must be 10–100.' }),
  'too large': payloadTooLarge(8192, 'Send the form only.'),
  'cross site': crossSiteRefused(),
  'method refused': methodNotAllowed('PUT', 'GET, HEAD, OPTIONS'),
  'head refused': headRefused(),
  'signed out': unauthenticated(),
  'signed out everywhere': unauthenticated('signed-out-everywhere'),
  'secret refused at renewal': unauthenticated('credentials-refused'),
  'secret refused': new CredentialsRefusedError(
    'demo',
    2,
    new UpstreamError('unauthorized', 'refused', { status: 401 }),
  ),
  'quota, account': new QuotaExceededError('minute', Date.now() + 45_000, 45_000, 'account', { limit: 3 }),
  'quota, shared': new QuotaExceededError('hour', Date.now() + 600_000, 600_000, 'deployment', {
    limit: 10,
    sharedBy: 3,
  }),
  'quota, held back': new QuotaExceededError('day', Date.now() + 8 * 3600_000, 8 * 3600_000, 'deployment', {
    held: true,
    sharedBy: 1,
  }),
  'quota, sign-ins': new QuotaExceededError('tokens', Date.now() + 4000, 4000, 'account', { cls: 'signin' }),
  'quota, one at a time': new QuotaExceededError('in-flight', Date.now() + 4000, 4000),
  ...Object.fromEntries(
    (
      [
        'bad_request',
        'unauthorized',
        'forbidden',
        'not_found',
        'rate_limited',
        'unavailable',
        'timeout',
        'malformed',
        'network',
      ] as const
    ).map((kind) => [
      `upstream ${kind}`,
      new UpstreamError(kind, `upstream ${kind}`, { status: 503, upstreamMessage: 'busy' }),
    ]),
  ),
};

function words(p: Problem): string[] {
  return [p.title, p.detail, p.reason, ...Object.values(p.errors ?? {})].filter((w): w is string => w !== undefined);
}

describe('problems in the request’s language', () => {
  it('says every problem in Japanese and in English, the machine-read members alike', () => {
    for (const [name, err] of Object.entries(thrown)) {
      const en = toProblem(err, 'en').problem;
      const ja = toProblem(err, 'ja').problem;
      expect(ja.title, name).toMatch(JAPANESE);
      expect(ja.detail ?? '', name).toMatch(name === 'bad request' ? JAPANESE : /.*/);
      expect(words(en).join(' '), name).not.toMatch(JAPANESE);
      const { title: _t, detail: _d, reason: _r, errors: enErrors, nextCallAt: _n, ...enRest } = en;
      const { title: _tj, detail: _dj, reason: _rj, errors: jaErrors, nextCallAt: _nj, ...jaRest } = ja;
      expect(jaRest, name).toEqual(enRest);
      expect(Object.keys(jaErrors ?? {}), name).toEqual(Object.keys(enErrors ?? {}));
      expect(en.type, name).toMatch(/^\/problems\/[a-z-]+$/);
    }
  });

  it('keeps the English the API has always said', () => {
    expect(toProblem(thrown['quota, account'], 'en').problem).toMatchObject({
      title: 'Waiting for the upstream\u2019s next free call',
      detail: "Your account's 3 calls this minute are used; the next call can go in 45 s.",
      reason: "Your account's 3 calls this minute are used",
    });
    expect(toProblem(thrown['quota, shared'], 'en').problem.detail).toBe(
      "This dashboard's shared calls this hour (10 an hour for every account together) are used (3 accounts used them); the next call can go in 10 min.",
    );
    expect(toProblem(thrown['quota, held back'], 'en').problem.detail).toBe(
      "Your account has used its share of this dashboard's calls this day: the rest is kept for accounts that have not called yet (1 account used them); the next call can go in 8 h.",
    );
    expect(toProblem(thrown['upstream unavailable'], 'en').problem.detail).toBe(
      'It answered with an error (503). Try again in 30 s.',
    );
    expect(toProblem(thrown['too large'], 'en').problem.detail).toBe(
      'This endpoint takes a body of at most 8192 bytes (8 KiB); it was not read past that. Send the form only.',
    );
  });

  it('says the same in Japanese, with the numbers and names the code gave', () => {
    expect(toProblem(thrown['quota, account'], 'ja').problem).toMatchObject({
      title: 'Report APIの次の呼び出し枠を待っています',
      detail: 'このアカウントのこの1分間の呼び出し回数(3回)の上限に達しました。次の呼び出しは45秒後に可能です。',
      reason: 'このアカウントのこの1分間の呼び出し回数(3回)の上限に達しました',
      limitedBy: 'minute',
      retryAfterSeconds: 45,
    });
    expect(toProblem(thrown['secret refused'], 'ja').problem.detail).toContain('demo用に保管していた');
    const bad = toProblem(thrown['bad request'], 'ja').problem;
    expect(bad.detail).toBe('page, page-sizeを修正して、もう一度お試しください。Report APIは呼び出していません。');
    // A parameter's words from the catalogue follow the language; text not converted yet stays as it was.
    expect(bad.errors).toEqual({
      page: 'リクエストのパラメーターに誤りがあります',
      'page-size': 'page-size must be 10–100.',
    });
  });

  it('keeps the English in the error itself, for the log', () => {
    expect((thrown['cross site'] as ProblemError).message).toMatch(/^This request can spend upstream calls/);
    expect((thrown['quota, account'] as Error).message).toBe(
      "Your account's 3 calls this minute are used; the next call can go in 45 s.",
    );
    const spec = (thrown['signed out'] as ProblemError).spec;
    expect(renderProblem(spec, 'ja').title).toBe('ログインしてください');
  });

  it('takes the request’s language from its cookie, then Accept-Language', () => {
    const req = (headers: Record<string, string>) => new NextRequest('http://localhost/api/quota', { headers });
    expect(localeOfRequest(req({ 'accept-language': 'ja-JP,ja;q=0.9' }))).toBe('ja');
    expect(localeOfRequest(req({ 'accept-language': 'ja-JP', cookie: 'sms-locale=en' }))).toBe('en');
    expect(localeOfRequest(new Request('http://localhost/', { headers: { cookie: 'a=1; sms-locale=ja' } }))).toBe('ja');
  });

  it('takes a signed-in team person’s profile before the cookie and Accept-Language', () => {
    const japanese = new NextRequest('http://localhost/api/quota', {
      headers: { 'accept-language': 'ja-JP,ja;q=0.9', cookie: 'sms-locale=ja' },
    });
    expect(localeOfRequest(japanese, { team: { locale: 'en' } })).toBe('en');
    // No choice kept (or none of ours), or a personal session: the cookie's.
    expect(localeOfRequest(japanese, { team: { locale: null } })).toBe('ja');
    expect(localeOfRequest(japanese, { team: { locale: 'fr' } })).toBe('ja');
    expect(localeOfRequest(japanese, { team: null })).toBe('ja');
  });
});
